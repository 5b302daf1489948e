//! Safe fetching and decoding of user-supplied remote images (avatars).
//!
//! Knows nothing of HTTP servers: it is a client that refuses private
//! addresses, bounds bytes, pixels and time.
