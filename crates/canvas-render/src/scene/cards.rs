//! The heart the cards draw (the `post` like icon), from the shared paint
//! helpers.

pub(super) use crate::paint::heart;
