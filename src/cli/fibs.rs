//! `gulbara fibs`: a FIBS bot (see [`crate::frontends::fibs`] and docs/CLIENTS.md).

use std::time::Duration;

use clap::Args;

use crate::frontends::fibs::bot::{Bot, BotConfig, register};

/// Options of `fibs`.
#[derive(Args, Debug)]
pub struct FibsArgs {
    /// The FIBS server, `HOST:PORT`.
    #[arg(long)]
    pub server: String,
    /// The bot's user name.
    #[arg(long)]
    pub user: String,
    /// Its password.
    #[arg(long)]
    pub password: String,
    /// Register the user first through the `guest` login (a name already
    /// taken is left as it is).
    #[arg(long)]
    pub register: bool,
    /// Invite this player (the bot then joins no one else's invitation).
    #[arg(long, value_name = "NAME")]
    pub invite: Option<String>,
    /// The length of the match it invites to.
    #[arg(long, default_value_t = 1, requires = "invite")]
    pub length: u32,
    /// Stop after this many matches; 0 plays on (the default, or 1 with --invite).
    #[arg(long)]
    pub matches: Option<u32>,
    /// Never offer a double (doubles offered to it are still answered).
    /// BaldLies's own gnubg bot cannot answer a double: see docs/CLIENTS.md.
    #[arg(long)]
    pub never_double: bool,
    /// Only log in (after --register, if given), set the toggles a bot
    /// needs (ready among them) and log out: prepares an account for
    /// another client, such as BaldLies's gnubg bot.
    #[arg(long, conflicts_with = "invite")]
    pub setup: bool,
    /// Give up when the server says nothing for this many seconds.
    #[arg(long, default_value_t = 600)]
    pub idle_timeout: u64,
    /// A protocol setting `KEY=VALUE` for the engine (repeatable), e.g.
    /// `--set engine.ply=1`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Runs the bot until its matches are played.
pub fn run(a: FibsArgs) -> anyhow::Result<()> {
    let settings = super::set_pairs(&a.set)?;
    anyhow::ensure!(a.length >= 1, "--length must be at least 1");
    let config = BotConfig {
        matches: a.matches.unwrap_or(u32::from(a.invite.is_some())),
        server: a.server,
        user: a.user,
        password: a.password,
        register: a.register,
        offer_doubles: !a.never_double,
        setup_only: a.setup,
        invite: a.invite,
        length: a.length,
        idle: Duration::from_secs(a.idle_timeout.max(1)),
        settings,
    };
    if config.register {
        register(&config)?;
    }
    let report = Bot::login(config)?.run()?;
    println!(
        "matches won {} lost {}; doubles {} takes {} drops {}",
        report.won, report.lost, report.doubles, report.takes, report.drops
    );
    Ok(())
}
