//! The front ends that speak another program's language and answer with
//! the engine: gnubg's external-player bridge ([`gnubg_external`]), the
//! FIBS bot ([`fibs`]), and the answer to a FIBS board that both, and the
//! protocol's UBGI draft boards, share ([`board_answer`]). The formats
//! they read and write are [`crate::gnubg`]'s codecs.

pub mod board_answer;
pub mod fibs;
pub mod gnubg_external;
