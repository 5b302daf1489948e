//! A minimal HTTP/1.1 keep-alive client on a blocking `TcpStream`: enough for
//! a load generator (GET only, `Content-Length`, chunked or close-delimited
//! bodies), with every read bounded in size and time.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Largest response head accepted.
const MAX_HEAD: usize = 64 * 1024;
/// Largest response body accepted.
const MAX_BODY: usize = 64 * 1024 * 1024;

/// One response, read whole.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// One keep-alive connection to `addr`, re-opened when the server closes it.
#[derive(Debug)]
pub struct Conn {
    addr: SocketAddr,
    timeout: Duration,
    stream: Option<BufReader<TcpStream>>,
    /// Connections opened so far (the first one included).
    pub connects: u64,
    /// Header lines sent with every request (each ending in CRLF).
    extra: String,
}

impl Conn {
    /// A connection (opened lazily) with `timeout` on every read and write.
    pub fn new(addr: SocketAddr, timeout: Duration) -> Self {
        Self {
            addr,
            timeout,
            stream: None,
            connects: 0,
            extra: String::new(),
        }
    }

    /// Sends `name: value` with every request.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.extra.push_str(&format!("{name}: {value}\r\n"));
        self
    }

    fn open(&mut self) -> io::Result<&mut BufReader<TcpStream>> {
        if self.stream.is_none() {
            let s = TcpStream::connect_timeout(&self.addr, self.timeout)?;
            s.set_read_timeout(Some(self.timeout))?;
            s.set_write_timeout(Some(self.timeout))?;
            s.set_nodelay(true)?;
            self.connects += 1;
            self.stream = Some(BufReader::with_capacity(16 * 1024, s));
        }
        Ok(self.stream.as_mut().expect("just opened"))
    }

    /// Sends `GET path` and reads the whole response.
    ///
    /// A request on a reused connection that the server had already closed
    /// (nothing at all read back) is retried once on a new connection, as
    /// every HTTP client does; any other failure is returned.
    pub fn get(&mut self, path: &str) -> io::Result<Response> {
        let reused = self.stream.is_some();
        match self.try_get(path) {
            Ok(r) => Ok(r),
            Err((e, nothing_read)) => {
                self.stream = None;
                if reused && nothing_read {
                    self.try_get(path).map_err(|(e, _)| {
                        self.stream = None;
                        e
                    })
                } else {
                    Err(e)
                }
            }
        }
    }

    fn try_get(&mut self, path: &str) -> Result<Response, (io::Error, bool)> {
        let host = self.addr;
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: menagerie-loadgen\r\nAccept: */*\r\n{}\r\n",
            self.extra
        );
        let s = self.open().map_err(|e| (e, true))?;
        s.get_mut()
            .write_all(req.as_bytes())
            .map_err(|e| (e, true))?;
        let (resp, close) = read_response(s)?;
        if close {
            self.stream = None;
        }
        Ok(resp)
    }
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// Reads one line (CRLF or LF ended) of at most `budget` bytes.
fn read_line(r: &mut impl BufRead, budget: &mut usize) -> io::Result<String> {
    let mut line = Vec::new();
    let n = r.take(*budget as u64 + 1).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "connection closed",
        ));
    }
    if n > *budget || !line.ends_with(b"\n") {
        return Err(bad("response head too long or truncated"));
    }
    *budget -= n;
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| bad("response head is not UTF-8"))
}

/// Reads a response; the flag is true when nothing at all could be read
/// (the error is then a closed idle connection). Returns the response and
/// whether the connection must be closed afterwards.
fn read_response(r: &mut BufReader<TcpStream>) -> Result<(Response, bool), (io::Error, bool)> {
    let mut budget = MAX_HEAD;
    let status_line = read_line(r, &mut budget).map_err(|e| (e, true))?;
    let mut inner = || -> io::Result<(Response, bool)> {
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().unwrap_or_default();
        let status: u16 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad(format!("bad status line {status_line:?}")))?;
        let mut close = version == "HTTP/1.0";
        let mut length: Option<usize> = None;
        let mut chunked = false;
        let mut content_type = None;
        loop {
            let line = read_line(r, &mut budget)?;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(bad(format!("bad header line {line:?}")));
            };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => {
                    length = Some(value.parse().map_err(|_| bad("bad content-length"))?)
                }
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "connection" => close = value.eq_ignore_ascii_case("close"),
                "content-type" => content_type = Some(value.to_owned()),
                _ => {}
            }
        }
        let body = if chunked {
            read_chunked(r)?
        } else if let Some(n) = length {
            if n > MAX_BODY {
                return Err(bad("body too large"));
            }
            let mut b = vec![0; n];
            r.read_exact(&mut b)?;
            b
        } else if status == 204 || status == 304 || (100..200).contains(&status) {
            Vec::new()
        } else {
            close = true;
            let mut b = Vec::new();
            r.take(MAX_BODY as u64 + 1).read_to_end(&mut b)?;
            if b.len() > MAX_BODY {
                return Err(bad("body too large"));
            }
            b
        };
        Ok((
            Response {
                status,
                content_type,
                body,
            },
            close,
        ))
    };
    inner().map_err(|e| (e, false))
}

fn read_chunked(r: &mut BufReader<TcpStream>) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut budget = 1024;
        let line = read_line(r, &mut budget)?;
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| bad("bad chunk size"))?;
        if size == 0 {
            // Trailers, then the empty line.
            let mut budget = MAX_HEAD;
            while !read_line(r, &mut budget)?.is_empty() {}
            return Ok(body);
        }
        if body.len() + size > MAX_BODY {
            return Err(bad("body too large"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        r.read_exact(&mut body[start..])?;
        let mut budget = 2;
        read_line(r, &mut budget)?;
    }
}
