//! `age-plugin-simdtest`: an age plugin written against the plugin
//! specification (c2sp.org/age-plugin), the plugin side of both state
//! machines, for testing clients: simdcrypt's (`tests/plugin.rs`) and Go
//! age's, which checks it follows the specification.
//!
//! Its keys are X25519 key pairs: recipients `age1simdtest1…` carry the
//! public key, identities `AGE-PLUGIN-SIMDTEST-1…` the secret one; its
//! stanzas are X25519's under the tag `simdtest`. After the 32 key bytes a
//! key may carry *modes*, comma-separated ASCII, that make the plugin use a
//! part of the protocol, deterministically:
//!
//! - `msg`: shows a message (`msg`);
//! - `secret`: asks for a PIN (`request-secret`), fails unless it is `1234`;
//! - `public`: asks for a name (`request-public`), fails unless `simd`;
//! - `confirm`: asks to confirm (`confirm`), fails unless the user says yes;
//! - `error`: answers with an `error`;
//! - `label:NAME`: adds the label NAME (recipient-v1);
//! - faults a client must catch: `garbage` (a line that is no stanza),
//!   `cut` (a stanza cut short), `index` (a stanza for file 1), `exit`
//!   (exits in the middle), `flood` (writes forever, never reading),
//!   `helper` (exits, a helper it started keeping its standard error),
//!   `nothing` (`done` with nothing sent), `twice` (two file keys).
//!
//! `age-plugin-simdtest --generate [MODES]` prints a new key pair:
//! `# recipient: age1simdtest1…` then `AGE-PLUGIN-SIMDTEST-1…`.

use std::io::{self, Write};
use std::process::ExitCode;

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Hrp};
use simdcrypt_age::format::b64_encode;
use simdcrypt_age::{FileKey, Identity as _, Recipient as _, Stanza, x25519};

/// The stanza tag of this plugin's recipient stanzas.
const TAG: &str = "simdtest";
/// The recipient's Bech32 prefix.
const RECIPIENT_HRP: &str = "age1simdtest";
/// The identity's Bech32 prefix.
const IDENTITY_HRP: &str = "AGE-PLUGIN-SIMDTEST-";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["--generate"] => generate(""),
        ["--generate", modes] => generate(modes),
        ["--age-plugin=recipient-v1"] => Plugin::new().recipient_v1(),
        ["--age-plugin=identity-v1"] => Plugin::new().identity_v1(),
        _ => Err(Exit::Fatal(
            "usage: age-plugin-simdtest --generate [MODES] | --age-plugin=STATE-MACHINE".into(),
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Exit::Reported) => ExitCode::from(3),
        Err(Exit::Fatal(why)) => {
            eprintln!("age-plugin-simdtest: {why}");
            ExitCode::FAILURE
        }
    }
}

/// How the plugin ends early.
enum Exit {
    /// An `error` was sent to the client.
    Reported,
    /// The protocol broke down: said on standard error.
    Fatal(String),
}

impl From<simdcrypt_age::Error> for Exit {
    fn from(e: simdcrypt_age::Error) -> Self {
        Exit::Fatal(e.to_string())
    }
}

/// A key of this plugin: 32 key bytes and the modes after them.
struct Key {
    bytes: [u8; 32],
    modes: Vec<String>,
}

impl Key {
    /// Parses a key string under `hrp`.
    fn parse(s: &str, hrp: &str) -> Result<Key, String> {
        let checked = CheckedHrpstring::new::<Bech32>(s).map_err(|e| e.to_string())?;
        if !checked.hrp().as_str().eq_ignore_ascii_case(hrp) {
            return Err(format!("not a simdtest key: {s}"));
        }
        let data: Vec<u8> = checked.byte_iter().collect();
        let (bytes, modes) = data
            .split_first_chunk::<32>()
            .ok_or("a simdtest key holds at least 32 bytes")?;
        let modes = String::from_utf8_lossy(modes);
        Ok(Key {
            bytes: *bytes,
            modes: modes
                .split(',')
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect(),
        })
    }

    fn has(&self, mode: &str) -> bool {
        self.modes.iter().any(|m| m == mode)
    }

    /// The X25519 identity of a secret key.
    fn identity(&self) -> x25519::Identity {
        encode("AGE-SECRET-KEY-", &self.bytes, true)
            .parse()
            .expect("32 bytes make an X25519 identity")
    }

    /// The X25519 recipient of a public key.
    fn recipient(&self) -> x25519::Recipient {
        encode("age", &self.bytes, false)
            .parse()
            .expect("32 bytes make an X25519 recipient")
    }
}

/// Bech32 of `data` under `hrp`.
fn encode(hrp: &str, data: &[u8], upper: bool) -> String {
    let hrp = Hrp::parse(hrp).expect("a valid prefix");
    if upper {
        bech32::encode_upper::<Bech32>(hrp, data)
    } else {
        bech32::encode_lower::<Bech32>(hrp, data)
    }
    .expect("a short key")
}

/// Prints a new key pair carrying `modes`.
fn generate(modes: &str) -> Result<(), Exit> {
    let identity = x25519::Identity::generate()?;
    let secret = Key::parse(&identity.to_bech32(), "AGE-SECRET-KEY-").map_err(Exit::Fatal)?;
    let with_modes = |key: &[u8]| [key, modes.as_bytes()].concat();
    println!(
        "# recipient: {}",
        encode(
            RECIPIENT_HRP,
            &with_modes(identity.to_public().as_bytes()),
            false
        )
    );
    println!("{}", encode(IDENTITY_HRP, &with_modes(&secret.bytes), true));
    Ok(())
}

/// The plugin's end of the exchange.
struct Plugin {
    input: io::StdinLock<'static>,
    output: io::StdoutLock<'static>,
}

impl Plugin {
    fn new() -> Self {
        Plugin {
            input: io::stdin().lock(),
            output: io::stdout().lock(),
        }
    }

    fn send(&mut self, tag: &str, args: &[&str], body: &[u8]) -> Result<(), Exit> {
        let stanza = Stanza {
            tag: tag.into(),
            args: args.iter().map(|&a| a.to_owned()).collect(),
            body: body.to_vec(),
        };
        stanza.write(&mut self.output)?;
        self.output.flush().map_err(|e| Exit::Fatal(e.to_string()))
    }

    fn receive(&mut self) -> Result<Stanza, Exit> {
        Ok(Stanza::read(&mut self.input)?)
    }

    /// Reads the client's answer, which must be one of `expected`.
    fn answer(&mut self, expected: &[&str]) -> Result<Stanza, Exit> {
        let answer = self.receive()?;
        if expected.contains(&answer.tag.as_str()) {
            Ok(answer)
        } else {
            Err(Exit::Fatal(format!(
                "expected {expected:?}, got {:?}",
                answer.tag
            )))
        }
    }

    /// Sends `error` about `what` (`recipient 0`, …) and stops.
    fn error(&mut self, what: &[&str], message: &str) -> Result<(), Exit> {
        self.send("error", what, message.as_bytes())?;
        self.answer(&["ok"])?;
        Err(Exit::Reported)
    }

    /// Phase 1: the client's commands until `done`, the unknown ignored.
    fn phase_one(&mut self) -> Result<Vec<Stanza>, Exit> {
        let mut commands = Vec::new();
        loop {
            let command = self.receive()?;
            if command.tag == "done" {
                return Ok(commands);
            }
            commands.push(command);
        }
    }

    /// What the modes of `keys` ask of the client, before any result;
    /// `what` is the kind of key, for an `error`.
    fn interact(&mut self, keys: &[Key], what: &str) -> Result<(), Exit> {
        let any = |mode: &str| keys.iter().any(|k| k.has(mode));
        if any("exit") {
            self.send("msg", &[], b"about to exit")?;
            eprintln!("simdtest exits early, as asked");
            std::process::exit(5);
        }
        if any("flood") {
            // Never reads again, and writes until the client ends it.
            while writeln!(self.output, "garbage, garbage, garbage").is_ok() {}
            std::process::exit(6);
        }
        if any("helper") {
            // A helper of its own keeps standard error open after it exits.
            let _ = std::process::Command::new("sleep")
                .arg("90")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn();
            eprintln!("simdtest leaves a helper behind, as asked");
            std::process::exit(3);
        }
        if any("garbage") {
            writeln!(self.output, "this is not a stanza").ok();
            self.output.flush().ok();
            return Err(Exit::Fatal("sent garbage, as asked".into()));
        }
        if any("cut") {
            write!(self.output, "-> msg\naGVsbG").ok();
            self.output.flush().ok();
            return Err(Exit::Fatal("cut a stanza short, as asked".into()));
        }
        // A command the client does not know: it must say "unsupported".
        self.send("grease-simdtest", &["x"], b"grease")?;
        self.answer(&["unsupported"])?;
        if any("msg") {
            self.send("msg", &[], b"hello from simdtest")?;
            self.answer(&["ok", "fail"])?;
        }
        if any("secret") {
            self.send("request-secret", &[], b"PIN for simdtest")?;
            let answer = self.answer(&["ok", "fail"])?;
            if answer.tag == "fail" {
                return self.error(&[what, "0"], "no PIN given");
            }
            if answer.body != b"1234" {
                return self.error(&[what, "0"], "wrong PIN");
            }
        }
        if any("public") {
            self.send("request-public", &[], b"your name")?;
            let answer = self.answer(&["ok", "fail"])?;
            if answer.tag == "fail" || answer.body != b"simd" {
                return self.error(&[what, "0"], "unknown name");
            }
        }
        if any("confirm") {
            let yes = b64_encode(b"Yes");
            let no = b64_encode(b"No");
            self.send("confirm", &[&yes, &no], b"use simdtest")?;
            let answer = self.answer(&["ok", "fail"])?;
            if answer.tag == "fail" {
                return self.error(&[what, "0"], "could not confirm");
            }
            if answer.args != ["yes"] {
                return self.error(&[what, "0"], "declined");
            }
        }
        if any("error") {
            return self.error(&[what, "0"], "simdtest was asked to fail");
        }
        Ok(())
    }

    fn recipient_v1(mut self) -> Result<(), Exit> {
        let mut keys = Vec::new();
        let mut file_keys = Vec::new();
        let mut labels_supported = false;
        for command in self.phase_one()? {
            match (command.tag.as_str(), command.args.as_slice()) {
                ("add-recipient", [s]) => match Key::parse(s, RECIPIENT_HRP) {
                    Ok(key) => keys.push(key),
                    Err(why) => return self.error(&["recipient", "0"], &why),
                },
                ("add-identity", [s]) => match Key::parse(s, IDENTITY_HRP) {
                    Ok(key) => {
                        let public = key.identity().to_public();
                        keys.push(Key {
                            bytes: *public.as_bytes(),
                            modes: key.modes,
                        });
                    }
                    Err(why) => return self.error(&["identity", "0"], &why),
                },
                ("wrap-file-key", []) => match <[u8; 16]>::try_from(command.body.as_slice()) {
                    Ok(bytes) => file_keys.push(FileKey::from_bytes(bytes)),
                    Err(_) => return Err(Exit::Fatal("a file key is 16 bytes".into())),
                },
                ("extension-labels", []) => labels_supported = true,
                _ => {}
            }
        }
        if keys.is_empty() || file_keys.is_empty() {
            return Err(Exit::Fatal("no recipients or no file keys".into()));
        }
        self.interact(&keys, "recipient")?;
        if labels_supported {
            // In the order of the modes: the client sorts them.
            let labels: Vec<&str> = keys
                .iter()
                .flat_map(|k| &k.modes)
                .filter_map(|m| m.strip_prefix("label:"))
                .collect();
            self.send("labels", &labels, &[])?;
            self.answer(&["ok"])?;
        }
        let nothing = keys.iter().any(|k| k.has("nothing"));
        for (i, file_key) in file_keys.iter().enumerate() {
            let index = if keys.iter().any(|k| k.has("index")) {
                i + 1
            } else {
                i
            }
            .to_string();
            for key in keys.iter().filter(|_| !nothing) {
                for stanza in key.recipient().wrap(file_key)? {
                    let args: Vec<&str> = [index.as_str(), TAG]
                        .into_iter()
                        .chain(stanza.args.iter().map(String::as_str))
                        .collect();
                    self.send("recipient-stanza", &args, &stanza.body)?;
                    self.answer(&["ok"])?;
                }
            }
        }
        self.send("done", &[], &[])
    }

    fn identity_v1(mut self) -> Result<(), Exit> {
        let mut keys = Vec::new();
        let mut files: Vec<Vec<Stanza>> = Vec::new();
        for command in self.phase_one()? {
            match (command.tag.as_str(), command.args.as_slice()) {
                ("add-identity", [s]) => match Key::parse(s, IDENTITY_HRP) {
                    Ok(key) => keys.push(key),
                    Err(why) => return self.error(&["identity", "0"], &why),
                },
                ("recipient-stanza", [index, tag, args @ ..]) => {
                    let index: usize =
                        index.parse().map_err(|_| Exit::Fatal("bad index".into()))?;
                    if index == files.len() {
                        files.push(Vec::new());
                    }
                    let file = files
                        .get_mut(index)
                        .ok_or_else(|| Exit::Fatal("files out of order".into()))?;
                    file.push(Stanza {
                        tag: tag.clone(),
                        args: args.to_vec(),
                        body: command.body,
                    });
                }
                _ => {}
            }
        }
        if keys.is_empty() {
            return Err(Exit::Fatal("no identities".into()));
        }
        self.interact(&keys, "identity")?;
        let twice = keys.iter().any(|k| k.has("twice"));
        for (i, stanzas) in files.iter().enumerate() {
            let index = i.to_string();
            let ours = stanzas.iter().filter(|s| s.tag == TAG).map(|s| Stanza {
                tag: x25519::TAG.into(),
                ..s.clone()
            });
            let mut found = None;
            for stanza in ours {
                for key in &keys {
                    match key.identity().unwrap(&stanza) {
                        Ok(Some(file_key)) => found = Some(file_key),
                        Ok(None) => {}
                        Err(e) => {
                            self.send("error", &["stanza", &index, "0"], e.to_string().as_bytes())?;
                            self.answer(&["ok"])?;
                        }
                    }
                }
            }
            if let Some(file_key) = found {
                for _ in 0..if twice { 2 } else { 1 } {
                    self.send("file-key", &[&index], file_key.expose())?;
                    self.answer(&["ok"])?;
                }
            }
        }
        self.send("done", &[], &[])
    }
}
