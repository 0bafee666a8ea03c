//! A FIBS bot: `gulbara fibs --server HOST:PORT --user NAME --password PW`.
//! It logs in to a FIBS server with CLIP, accepts invitations (or invites
//! a named player), and plays matches to the end through the engine:
//! moves, the cube, resignations offered to it and the Crawford game.
//!
//! [`clip`] reads the server's lines into events and writes moves;
//! [`bot`] keeps the connection and decides; the decisions themselves
//! come from [`crate::frontends::board_answer`], as for gnubg's external
//! player and UBGI draft boards. docs/CLIENTS.md has a session to repeat
//! on BaldLies.

pub mod bot;
pub mod clip;
