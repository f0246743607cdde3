//! The parameters the table's primitives declare beyond key and IV
//! (`simdcrypt::ladder::Param`), as flags of the commands that build those
//! primitives: one flag per parameter name, made at start-up from the
//! declarations (`--NAME VALUE`; a switch on by default is `--no-NAME`, one
//! off by default `--NAME`), and read back as `(name, value)` pairs for
//! `simdcrypt::dynamic::Params`, which the library checks against the
//! declaration of the primitive chosen. No parameter is named here.

use clap::{Arg, ArgAction, ArgMatches, Command};
use simdcrypt::ladder::{self, Kind, Param, ParamKind};

/// Every parameter the primitives of `kind` declare, each name once (the
/// first declaration: the library's tests check that every declaration of
/// a name agrees on its kind and help), and whether a switch is off by
/// default somewhere and on by default somewhere.
fn declared(kind: Kind) -> Vec<(Param, Defaults)> {
    let mut params: Vec<(Param, Defaults)> = Vec::new();
    for (_, primitive) in ladder::primitives().filter(|(_, p)| p.kind == kind) {
        for param in primitive.params {
            let at = match params.iter().position(|(p, _)| p.name == param.name) {
                Some(at) => at,
                None => {
                    params.push((*param, Defaults::default()));
                    params.len() - 1
                }
            };
            let defaults = &mut params[at].1;
            defaults.on |= param.default == "on";
            defaults.off |= param.default == "off";
        }
    }
    params
}

/// Which defaults a switch has among the primitives that declare it.
#[derive(Clone, Copy, Default)]
struct Defaults {
    on: bool,
    off: bool,
}

/// The flag's id: apart from the command's own arguments.
fn id(name: &str, value: &str) -> String {
    format!("param {name}={value}")
}

/// `command` with a flag for each parameter the primitives of `kind`
/// declare.
pub fn flags(mut command: Command, kind: Kind) -> Command {
    for (param, defaults) in declared(kind) {
        let name = param.name;
        let help = param.help;
        match param.kind {
            ParamKind::Switch => {
                for (given, flag, wanted) in [
                    (defaults.on, format!("no-{name}"), "off"),
                    (defaults.off, name.to_owned(), "on"),
                ] {
                    if given {
                        command = command.arg(
                            Arg::new(id(name, wanted))
                                .long(flag)
                                .action(ArgAction::SetTrue)
                                .help(help),
                        );
                    }
                }
            }
            other => {
                let value_name = match other {
                    ParamKind::Number { .. } => "N",
                    ParamKind::Value { value_name, .. } => value_name,
                    _ => "VALUE",
                };
                command = command.arg(
                    Arg::new(id(name, ""))
                        .long(name)
                        .value_name(value_name)
                        .help(help),
                );
            }
        }
    }
    command
}

/// The parameters given on the command line `matches` parsed, as
/// `(name, value)` pairs.
pub fn given(matches: &ArgMatches, kind: Kind) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (param, _) in declared(kind) {
        let name = param.name;
        for value in ["", "on", "off"] {
            let id = id(name, value);
            let Ok(Some(raw)) = matches.try_get_raw(&id) else {
                continue;
            };
            match value {
                "" => {
                    pairs.extend(raw.map(|v| (name.to_owned(), v.to_string_lossy().into_owned())))
                }
                _ if matches.get_flag(&id) => pairs.push((name.to_owned(), value.to_owned())),
                _ => {}
            }
        }
    }
    pairs
}

/// `pairs` as the library takes them.
pub fn as_params(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}
