//! Frame plans: the output frames of a template over an avatar (and a
//! second image), aligned by time.

use super::*;

/// One output frame: the template frame, the avatar frame and the delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramePlan {
    /// Index into the template's frames.
    pub template_frame: u32,
    /// Index into the avatar's frames.
    pub avatar_frame: usize,
    /// Index into the second image's frames ([`Layer::Image`]; 0 without
    /// one).
    pub image_frame: usize,
    /// How long the frame shows, in ms.
    pub delay_ms: u32,
}

/// A source frame's delay as players show it: browsers show delays under
/// 20 ms as 100 ms.
pub(super) fn shown_delay(ms: u32) -> u32 {
    if ms < 20 { 100 } else { ms }
}

/// The output frames of `template` over an avatar whose frames last
/// `avatar_delays` ms (one entry: a still avatar), aligned by time.
///
/// * A still template: the avatar's frames and delays.
/// * An animated template over a still avatar: its own frames.
/// * Both animated: the template's frame rate; its loop repeats until it
///   covers the avatar's loop, and each output frame shows the avatar frame
///   on screen at its start time. At most [`MAX_TEMPLATE_FRAMES`] frames
///   (whole template loops when it has to cut).
pub fn plan_frames(template: &Template, args: &Args, avatar_delays: &[u32]) -> Vec<FramePlan> {
    plan_frames_with(template, args, avatar_delays, &[])
}

/// The frame on screen at `t` ms in a loop of frames shown for `shown` ms
/// (`total` their sum, not 0).
pub(super) fn frame_at(shown: &[u64], total: u64, t: u64) -> usize {
    let t = t % total;
    let mut end = 0;
    shown
        .iter()
        .position(|&d| {
            end += d;
            t < end
        })
        .unwrap_or(0)
}

/// The output frames of `template` over an avatar whose frames last
/// `avatar_delays` ms and a second image ([`Layer::Image`]) whose frames
/// last `image_delays` ms (empty or one entry: still), all aligned by time.
/// With a still image this is [`plan_frames`]. With an animated image:
///
/// * a still template: one output frame from each moment either source
///   changes frame, over the longer of the two loops (the shorter one
///   repeats), each showing both frames on screen at its start; at most
///   [`MAX_TEMPLATE_FRAMES`] frames (sampled evenly in time past it);
/// * an animated template: its own frame rate, its loop repeated to cover
///   the longer source loop, as in [`plan_frames`].
pub fn plan_frames_with(
    template: &Template,
    args: &Args,
    avatar_delays: &[u32],
    image_delays: &[u32],
) -> Vec<FramePlan> {
    if image_delays.len() <= 1 {
        return plan_avatar_frames(template, args, avatar_delays);
    }
    let shown = |delays: &[u32]| -> Vec<u64> {
        delays.iter().map(|&d| u64::from(shown_delay(d))).collect()
    };
    let image = shown(image_delays);
    let image_loop: u64 = image.iter().sum();
    let avatar_animated = avatar_delays.len() > 1;
    let avatar = if avatar_animated {
        shown(avatar_delays)
    } else {
        vec![1]
    };
    let avatar_loop: u64 = avatar.iter().sum();
    let longest = if avatar_animated {
        image_loop.max(avatar_loop)
    } else {
        image_loop
    };
    let n = template.timeline.frames.max(1);
    if n > 1 {
        let delay = template.delay_ms(args).max(1);
        let template_loop = u64::from(n) * u64::from(delay);
        let loops = longest.div_ceil(template_loop).max(1);
        let max_loops = (MAX_TEMPLATE_FRAMES as u64 / u64::from(n)).max(1);
        let total = (loops.min(max_loops) * u64::from(n)) as u32;
        return (0..total)
            .map(|k| {
                let t = u64::from(k) * u64::from(delay);
                FramePlan {
                    template_frame: k % n,
                    avatar_frame: if avatar_animated {
                        frame_at(&avatar, avatar_loop, t)
                    } else {
                        0
                    },
                    image_frame: frame_at(&image, image_loop, t),
                    delay_ms: delay,
                }
            })
            .collect();
    }
    // A still template: every moment either source changes frame.
    let starts = |shown: &[u64], total: u64| -> Vec<u64> {
        let mut out = Vec::new();
        let mut t = 0;
        'outer: loop {
            for &d in shown {
                if t >= longest {
                    break 'outer;
                }
                out.push(t);
                t += d;
            }
            if total == 0 {
                break;
            }
        }
        out
    };
    let mut cuts = starts(&image, image_loop);
    if avatar_animated {
        cuts.extend(starts(&avatar, avatar_loop));
        cuts.sort_unstable();
        cuts.dedup();
    }
    if cuts.len() > MAX_TEMPLATE_FRAMES {
        let m = MAX_TEMPLATE_FRAMES as u64;
        cuts = (0..m).map(|k| k * longest / m).collect();
        cuts.dedup();
    }
    let ends: Vec<u64> = cuts.iter().skip(1).copied().chain([longest]).collect();
    cuts.iter()
        .zip(ends)
        .map(|(&t, end)| FramePlan {
            template_frame: 0,
            avatar_frame: if avatar_animated {
                frame_at(&avatar, avatar_loop, t)
            } else {
                0
            },
            image_frame: frame_at(&image, image_loop, t),
            delay_ms: u32::try_from(end - t).unwrap_or(u32::MAX),
        })
        .collect()
}

/// [`plan_frames`] proper: a still or no second image.
pub(super) fn plan_avatar_frames(
    template: &Template,
    args: &Args,
    avatar_delays: &[u32],
) -> Vec<FramePlan> {
    let n = template.timeline.frames.max(1);
    let delay = template.delay_ms(args).max(1);
    let avatar_animated = avatar_delays.len() > 1;
    if n == 1 {
        if !avatar_animated {
            return vec![FramePlan {
                template_frame: 0,
                avatar_frame: 0,
                image_frame: 0,
                delay_ms: avatar_delays.first().copied().unwrap_or(0),
            }];
        }
        return avatar_delays
            .iter()
            .enumerate()
            .take(MAX_TEMPLATE_FRAMES)
            .map(|(i, &d)| FramePlan {
                template_frame: 0,
                avatar_frame: i,
                image_frame: 0,
                delay_ms: d,
            })
            .collect();
    }
    let own = |k: u32| FramePlan {
        template_frame: k,
        avatar_frame: 0,
        image_frame: 0,
        delay_ms: delay,
    };
    if !avatar_animated {
        return (0..n).map(own).collect();
    }
    let shown: Vec<u64> = avatar_delays
        .iter()
        .map(|&d| u64::from(shown_delay(d)))
        .collect();
    let avatar_loop: u64 = shown.iter().sum();
    let template_loop = u64::from(n) * u64::from(delay);
    let loops = avatar_loop.div_ceil(template_loop).max(1);
    let max_loops = (MAX_TEMPLATE_FRAMES as u64 / u64::from(n)).max(1);
    let total = (loops.min(max_loops) * u64::from(n)) as u32;
    (0..total)
        .map(|k| {
            let t = (u64::from(k) * u64::from(delay)) % avatar_loop;
            let mut end = 0;
            let avatar_frame = shown
                .iter()
                .position(|&d| {
                    end += d;
                    t < end
                })
                .unwrap_or(0);
            FramePlan {
                avatar_frame,
                ..own(k % n)
            }
        })
        .collect()
}
