//! Timestamps: ISO 8601 read by hand and drawn in one fixed form, never
//! from a clock, so the same input always gives the same pixels.

/// Most characters of a timestamp ([`super::ParamKind::Time`]).
pub const MAX_TIMESTAMP_CHARS: usize = 40;

/// A moment in ISO 8601 written as a chat client writes a message's date,
/// in UTC: `11/29/2026 8:15 AM` (month/day/year, the hour 1–12 without a
/// leading zero, AM or PM). `None` when it is not a timestamp: the date
/// `YYYY-MM-DD`, `T` (or `t`, or a space), the time `HH:MM`, optionally
/// `:SS` and a fraction, then `Z`, an offset `±HH:MM` / `±HHMM` / `±HH`,
/// or nothing (UTC). Years 0001–9999 (after moving to UTC too); a leap
/// second (`:60`) is read as `:59`.
///
/// ```
/// use canvas_render::template::format_timestamp;
/// assert_eq!(format_timestamp("2026-11-29T08:15:00Z").as_deref(), Some("11/29/2026 8:15 AM"));
/// assert_eq!(format_timestamp("2026-11-29T20:15:00+05:30").as_deref(), Some("11/29/2026 2:45 PM"));
/// assert_eq!(format_timestamp("2026-02-30T08:15Z"), None);
/// ```
pub fn format_timestamp(text: &str) -> Option<String> {
    let s = text.trim();
    if s.len() > MAX_TIMESTAMP_CHARS || !s.is_ascii() {
        return None;
    }
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) || b.get(13) != Some(&b':') {
        return None;
    }
    let (hour, minute) = (num(11, 2)?, num(14, 2)?);
    let mut at = 16;
    let mut second = 0;
    if b.get(at) == Some(&b':') {
        second = num(at + 1, 2)?;
        at += 3;
        if matches!(b.get(at), Some(b'.' | b',')) {
            at += 1;
            let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            at += digits;
        }
    }
    let offset = match &b[at..] {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (h, m) = match rest.len() {
                2 => (num(at + 1, 2)?, 0),
                4 => (num(at + 1, 2)?, num(at + 3, 2)?),
                5 if rest[2] == b':' => (num(at + 1, 2)?, num(at + 4, 2)?),
                _ => return None,
            };
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = h * 60 + m;
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return None,
    };
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
        || year < 1
    {
        return None;
    }
    let minutes = days_from_civil(year, month, day) * 1440 + hour * 60 + minute - offset;
    let (days, of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    let (y, m, d) = civil_from_days(days);
    if !(1..=9999).contains(&y) {
        return None;
    }
    let (h, min) = (of_day / 60, of_day % 60);
    let (h12, half) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    Some(format!("{m:02}/{d:02}/{y:04} {h12}:{min:02} {half}"))
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
