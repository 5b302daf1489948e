//! Shortening user input and pack entries quoted back in messages.

/// The longest excerpt of user input or pack entry quoted back in a message.
const MAX_QUOTED_CHARS: usize = 80;

/// Shortens `text` to at most [`MAX_QUOTED_CHARS`] characters for a message.
pub(crate) fn excerpt(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}
