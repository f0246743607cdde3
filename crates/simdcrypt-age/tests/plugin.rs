//! The plugin client (`simdcrypt_age::plugin`) with our test plugin
//! (`tests/support/age-plugin-simdtest.rs`, a binary of this crate) and with
//! Go age's plugins (`age-plugin-pq`, `-batchpass`, `-tag`, `-tagtest`);
//! and Go `age` with our test plugin, which shows the plugin follows the
//! specification. The Go tools are taken from `PATH` (`.ci/install-peers`
//! prints their directory); a test whose tool is absent says it skipped.
//!
//! The test plugin is this crate's binary `age-plugin-simdtest`
//! (`tests/support/`, built with the `testkit` feature, as this test is).

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex, Once};

use simdcrypt_age::plugin::{self, Ui};
use simdcrypt_age::{
    Decryptor, Encryptor, Error, FileKey, Recipient as _, decrypt, encrypt, pq, scrypt, x25519,
};
use zeroize::Zeroizing;

use simdcrypt_testsupport::{bytes, peer, run_command as run};

/// The passphrase `age-plugin-batchpass` reads (`AGE_PASSPHRASE`).
const PASSPHRASE: &str = "correct horse battery staple";

/// Puts our test plugin's directory first on `PATH` and sets
/// batchpass's environment, once for the whole test binary, before any
/// test runs a plugin: every test calls this first.
fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let plugin = std::path::Path::new(env!("CARGO_BIN_EXE_age-plugin-simdtest"));
        let plugins = plugin.parent().unwrap().to_path_buf();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path =
            std::env::join_paths(std::iter::once(plugins).chain(std::env::split_paths(&path)))
                .unwrap();
        // SAFETY: run once, under `Once`, before any test reads the
        // environment or starts a process: every test calls `setup` first
        // and waits here until it is done.
        unsafe {
            std::env::set_var("PATH", path);
            std::env::set_var("AGE_PASSPHRASE", PASSPHRASE);
            std::env::set_var("AGE_PASSPHRASE_WORK_FACTOR", "10");
        }
    });
}

/// A fresh directory under the system's temporary one, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("simdcrypt-plugin-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `command`, which must succeed; its standard output.
fn ok(command: &mut Command, stdin: &[u8]) -> Vec<u8> {
    let out = run(command, stdin);
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A new key pair of our test plugin carrying `modes`: the recipient's
/// string and the identity's.
fn simdtest_keys(modes: &str) -> (String, String) {
    setup();
    let out = ok(
        Command::new("age-plugin-simdtest")
            .arg("--generate")
            .arg(modes),
        b"",
    );
    let out = String::from_utf8(out).unwrap();
    let mut lines = out.lines();
    let recipient = lines.next().unwrap().strip_prefix("# recipient: ").unwrap();
    (recipient.to_owned(), lines.next().unwrap().to_owned())
}

/// A plugin recipient and identity of our test plugin carrying `modes`.
fn simdtest(modes: &str) -> (plugin::Recipient, plugin::Identity) {
    let (recipient, identity) = simdtest_keys(modes);
    (recipient.parse().unwrap(), identity.parse().unwrap())
}

fn seal(recipients: &[&dyn simdcrypt_age::Recipient], plain: &[u8]) -> Result<Vec<u8>, Error> {
    let mut sealed = Vec::new();
    encrypt(recipients, plain, &mut sealed)?;
    Ok(sealed)
}

fn open(identities: &[&dyn simdcrypt_age::Identity], sealed: &[u8]) -> Result<Vec<u8>, Error> {
    let mut opened = Vec::new();
    decrypt(identities, sealed, &mut opened)?;
    Ok(opened)
}

/// The message of a plugin error of plugin `name`.
fn plugin_message(result: Result<impl Sized, Error>, name: &str) -> String {
    match result {
        Err(Error::Plugin { name: n, message }) if n == name => message,
        Err(e) => panic!("expected an error of plugin {name}, got {e}"),
        Ok(_) => panic!("expected an error of plugin {name}, got success"),
    }
}

#[test]
fn round_trips_through_our_plugin_beside_native_recipients() {
    let (r1, i1) = simdtest("");
    let (r2, i2) = simdtest("");
    let native = x25519::Identity::generate().unwrap();
    let plain = bytes(1, 100_000);
    let sealed = seal(&[&r1, &native.to_public(), &r2], &plain).unwrap();
    let decryptor = Decryptor::new(&sealed[..]).unwrap();
    let tags: Vec<&str> = decryptor
        .header()
        .stanzas()
        .iter()
        .map(|s| s.tag.as_str())
        .collect();
    assert_eq!(tags, ["simdtest", "X25519", "simdtest"]);
    // Each identity, given all the stanzas at once, finds its own.
    assert_eq!(open(&[&i1], &sealed).unwrap(), plain);
    assert_eq!(open(&[&i2], &sealed).unwrap(), plain);
    assert_eq!(open(&[&native], &sealed).unwrap(), plain);
    // Another key of the plugin: no match, not an error.
    let (_, stranger) = simdtest("");
    assert!(matches!(open(&[&stranger], &sealed), Err(Error::NoMatch)));
    assert_eq!(open(&[&stranger, &i2], &sealed).unwrap(), plain);
    // Encrypting to an identity (age -e -i): the plugin gets add-identity.
    let to_identity = plugin::Recipient::from_identity(&i1);
    assert_eq!(to_identity.to_string(), "<identity-based recipient>");
    let sealed = seal(&[&to_identity], &plain).unwrap();
    assert_eq!(open(&[&i1], &sealed).unwrap(), plain);
}

#[test]
fn labels_decide_which_recipients_mix() {
    let file_key = FileKey::generate().unwrap();
    let (labelled, _) = simdtest("label:postquantum,label:extra");
    let (_, labels) = labelled.wrap_with_labels(&file_key).unwrap();
    assert_eq!(labels, ["postquantum", "extra"]);
    // Compared as sets, in any order.
    let (reordered, _) = simdtest("label:extra,label:postquantum");
    let hybrid = pq::Identity::generate().unwrap().to_public();
    Encryptor::new(&[&labelled, &reordered]).unwrap();
    assert!(matches!(
        Encryptor::new(&[&labelled, &hybrid]),
        Err(Error::IncompatibleRecipients(..))
    ));
    let (plain_recipient, _) = simdtest("");
    assert!(
        plain_recipient
            .wrap_with_labels(&file_key)
            .unwrap()
            .1
            .is_empty()
    );

    let (pq_plugin, pq_identity) = simdtest("label:postquantum");
    let hybrid = pq::Identity::generate().unwrap();
    let sealed = seal(&[&hybrid.to_public(), &pq_plugin], b"both").unwrap();
    assert_eq!(open(&[&pq_identity], &sealed).unwrap(), b"both");
    let classic = x25519::Identity::generate().unwrap().to_public();
    assert!(matches!(
        Encryptor::new(&[&classic, &pq_plugin]),
        Err(Error::MixedPostQuantum)
    ));
    assert!(matches!(
        Encryptor::new(&[&pq_plugin, &classic]),
        Err(Error::MixedPostQuantum)
    ));
    let (other, _) = simdtest("label:other");
    match Encryptor::new(&[&plain_recipient, &other]) {
        Err(Error::IncompatibleRecipients(first, then)) => {
            assert!(first.is_empty());
            assert_eq!(then, ["other"]);
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("mixed labels accepted"),
    }
    // A passphrase is still refused beside anything, before any plugin runs.
    let passphrase = scrypt::Recipient::new(b"pass", 10);
    assert!(matches!(
        Encryptor::new(&[&passphrase, &plain_recipient]),
        Err(Error::ScryptNotAlone)
    ));
}

/// A [`Ui`] that records what it is asked and answers as told.
#[derive(Default)]
struct Recording {
    seen: Mutex<Vec<String>>,
    pin: Option<&'static str>,
    name: Option<&'static str>,
    confirm: Option<bool>,
}

impl Ui for Recording {
    fn display_message(&self, plugin: &str, message: &str) -> bool {
        self.seen
            .lock()
            .unwrap()
            .push(format!("msg {plugin}: {message}"));
        true
    }

    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<Zeroizing<String>> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("request {plugin}: {prompt} (secret: {secret})"));
        let value = if secret { self.pin } else { self.name };
        value.map(|v| Zeroizing::new(v.to_owned()))
    }

    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        self.seen.lock().unwrap().push(format!(
            "confirm {plugin}: {prompt} [{yes}/{}]",
            no.unwrap_or("-")
        ));
        self.confirm
    }
}

#[test]
fn the_plugin_talks_to_the_user_through_the_ui() {
    let (recipient, identity) = simdtest("msg,secret,public,confirm");
    let ui = Arc::new(Recording {
        pin: Some("1234"),
        name: Some("simd"),
        confirm: Some(true),
        ..Recording::default()
    });
    let recipient = recipient.with_ui(ui.clone());
    let sealed = seal(&[&recipient], b"asked").unwrap();
    let expected = [
        "msg simdtest: hello from simdtest",
        "request simdtest: PIN for simdtest (secret: true)",
        "request simdtest: your name (secret: false)",
        "confirm simdtest: use simdtest [Yes/No]",
    ];
    assert_eq!(*ui.seen.lock().unwrap(), expected);
    let identity = identity.with_ui(ui.clone());
    assert_eq!(open(&[&identity], &sealed).unwrap(), b"asked");
    assert_eq!(ui.seen.lock().unwrap().len(), 8);

    // The answers reach the plugin: a wrong PIN, a refusal, a "no".
    let (recipient, _) = simdtest("secret,confirm");
    let wrong = Arc::new(Recording {
        pin: Some("0000"),
        confirm: Some(true),
        ..Recording::default()
    });
    let message = plugin_message(seal(&[&recipient.clone().with_ui(wrong)], b""), "simdtest");
    assert_eq!(message, "wrong PIN");
    let declined = Arc::new(Recording {
        pin: Some("1234"),
        confirm: Some(false),
        ..Recording::default()
    });
    let message = plugin_message(
        seal(&[&recipient.clone().with_ui(declined)], b""),
        "simdtest",
    );
    assert_eq!(message, "declined");
    // The default UI refuses: the plugin is told "fail".
    let message = plugin_message(seal(&[&recipient], b""), "simdtest");
    assert_eq!(message, "no PIN given");
    let (recipient, _) = simdtest("msg,confirm");
    let message = plugin_message(seal(&[&recipient], b""), "simdtest");
    assert_eq!(message, "could not confirm");
}

#[test]
fn plugin_errors_and_faults_are_errors() {
    let (recipient, identity) = simdtest("error");
    let message = plugin_message(seal(&[&recipient], b""), "simdtest");
    assert_eq!(message, "simdtest was asked to fail");
    let (good, _) = simdtest("");
    let sealed = seal(&[&good], b"x").unwrap();
    let message = plugin_message(open(&[&identity], &sealed), "simdtest");
    assert_eq!(message, "simdtest was asked to fail");

    for (mode, expected) in [
        (
            "garbage",
            "malformed response: expected a stanza (\"-> \") (exit status: 1, saying: age-plugin-simdtest: sent garbage, as asked)",
        ),
        ("cut", "malformed response: the stanza is cut short"),
        (
            "index",
            "recipient-stanza for file \"1\": only file 0 was sent",
        ),
        ("nothing", "it sent no recipient stanza"),
        ("exit", "exit status: 5"),
        // Neither may hang the client: it ends the plugin, and does not
        // wait for a pipe a helper holds (a hang fails after a minute).
        ("flood", "malformed response"),
        ("helper", "exit status: 3"),
    ] {
        let (recipient, _) = simdtest(mode);
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(seal(&[&recipient], b"")));
        let result = result
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{mode}: the client hung"));
        let message = plugin_message(result, "simdtest");
        assert!(message.contains(expected), "{mode}: {message}");
        if mode == "exit" {
            assert!(
                message.contains("simdtest exits early, as asked"),
                "{message}"
            );
        }
    }
    let (recipient, twice) = simdtest("twice");
    let sealed = seal(&[&recipient], b"x").unwrap();
    let message = plugin_message(open(&[&twice], &sealed), "simdtest");
    assert!(message.contains("file-key sent twice"), "{message}");
}

#[test]
// Under qemu-user (how CI runs aarch64), glibc's posix_spawn loses the
// child's exec error (its CLONE_VM channel becomes a fork), so a missing
// program appears started and exits 127: the error is another.
#[cfg_attr(
    target_arch = "aarch64",
    ignore = "qemu-user reports a missing program as spawned"
)]
fn a_missing_plugin_is_named() {
    setup();
    let hrp = bech32::Hrp::parse("age1nosuchplugin").unwrap();
    let recipient: plugin::Recipient = bech32::encode_lower::<bech32::Bech32>(hrp, &[1; 32])
        .unwrap()
        .parse()
        .unwrap();
    let e = seal(&[&recipient], b"").unwrap_err();
    assert!(matches!(&e, Error::PluginNotFound(name) if name == "nosuchplugin"));
    let message = e.to_string();
    assert!(
        message.contains("age-plugin-nosuchplugin") && message.contains("PATH"),
        "{message}"
    );
    let identity = plugin::Identity::without_data("nosuchplugin").unwrap();
    let sealed = seal(&[&x25519::Identity::generate().unwrap().to_public()], b"").unwrap();
    assert!(matches!(
        open(&[&identity], &sealed),
        Err(Error::PluginNotFound(_))
    ));
}

#[test]
fn go_age_uses_our_plugin_both_ways() {
    setup();
    let Some(age) = peer("AGE_BIN", "age") else {
        return;
    };
    let dir = TempDir::new("go-age");
    let (recipient, identity) = simdtest_keys("msg");
    let key_file = dir.file("key.txt", format!("{identity}\n").as_bytes());
    let plain = bytes(2, 70_000);
    // age encrypts through our plugin; we decrypt through it.
    let out = run(Command::new(&age).arg("-r").arg(&recipient), &plain);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // age's terminal UI prints the plugin's message so.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("age: simdtest plugin: hello from simdtest")
    );
    let ours: plugin::Identity = identity.parse().unwrap();
    assert_eq!(open(&[&ours], &out.stdout).unwrap(), plain);
    // We encrypt through it; age decrypts through it, and to the identity.
    let sealed = seal(&[&recipient.parse::<plugin::Recipient>().unwrap()], &plain).unwrap();
    let sealed_path = dir.file("sealed.age", &sealed);
    assert_eq!(
        ok(
            Command::new(&age)
                .arg("-d")
                .arg("-i")
                .arg(&key_file)
                .arg(&sealed_path),
            b""
        ),
        plain
    );
    let sealed = ok(
        Command::new(&age).arg("-e").arg("-i").arg(&key_file),
        &plain,
    );
    assert_eq!(open(&[&ours], &sealed).unwrap(), plain);
}

#[test]
fn go_age_plugin_pq() {
    setup();
    let Some(pq_plugin) = peer("AGE_PLUGIN_PQ_BIN", "age-plugin-pq") else {
        return;
    };
    let hybrid = pq::Identity::generate().unwrap();
    // age1pq1… names the plugin "pq": encrypting to it through the plugin.
    let recipient: plugin::Recipient = hybrid.to_public().to_string().parse().unwrap();
    assert_eq!(recipient.name(), "pq");
    let (_, labels) = recipient
        .wrap_with_labels(&FileKey::generate().unwrap())
        .unwrap();
    assert_eq!(labels, ["postquantum"]);
    let plain = bytes(3, 5000);
    let other = pq::Identity::generate().unwrap();
    let sealed = seal(&[&recipient, &other.to_public()], &plain).unwrap();
    assert_eq!(open(&[&hybrid], &sealed).unwrap(), plain);
    assert_eq!(open(&[&other], &sealed).unwrap(), plain);
    let classic = x25519::Identity::generate().unwrap().to_public();
    assert!(matches!(
        Encryptor::new(&[&recipient, &classic]),
        Err(Error::MixedPostQuantum)
    ));
    // The identity as the plugin's (age-plugin-pq -identity) decrypts, and
    // encrypts to itself.
    let converted = ok(
        Command::new(&pq_plugin).arg("-identity"),
        format!("{}\n", hybrid.to_bech32().as_str()).as_bytes(),
    );
    let converted = String::from_utf8(converted).unwrap();
    let line = converted
        .lines()
        .find(|l| l.starts_with("AGE-PLUGIN-PQ-1"))
        .unwrap();
    let identity: plugin::Identity = line.parse().unwrap();
    assert_eq!(open(&[&identity], &sealed).unwrap(), plain);
    let sealed = seal(&[&hybrid.to_public()], &plain).unwrap();
    assert_eq!(open(&[&identity], &sealed).unwrap(), plain);
    let sealed = seal(&[&plugin::Recipient::from_identity(&identity)], &plain).unwrap();
    assert_eq!(open(&[&hybrid], &sealed).unwrap(), plain);
}

#[test]
fn go_age_plugin_batchpass() {
    setup();
    if peer("AGE_PLUGIN_BATCHPASS_BIN", "age-plugin-batchpass").is_none() {
        return;
    }
    let batchpass = plugin::Identity::without_data("batchpass").unwrap();
    let plain = bytes(4, 3000);
    let sealed = seal(&[&plugin::Recipient::from_identity(&batchpass)], &plain).unwrap();
    let decryptor = Decryptor::new(&sealed[..]).unwrap();
    assert!(decryptor.is_passphrase());
    assert_eq!(open(&[&batchpass], &sealed).unwrap(), plain);
    let native = scrypt::Identity::new(PASSPHRASE.as_bytes(), 20);
    assert_eq!(open(&[&native], &sealed).unwrap(), plain);
    let sealed = seal(
        &[&scrypt::Recipient::new(PASSPHRASE.as_bytes(), 10)],
        &plain,
    )
    .unwrap();
    assert_eq!(open(&[&batchpass], &sealed).unwrap(), plain);
    // Its random label keeps it alone.
    let classic = x25519::Identity::generate().unwrap().to_public();
    assert!(matches!(
        Encryptor::new(&[&classic, &plugin::Recipient::from_identity(&batchpass)]),
        Err(Error::IncompatibleRecipients(..))
    ));
}

/// The fixed recipient of `age-plugin-tagtest`'s classic identity
/// (age's tag/internal/age-plugin-tagtest).
const TAGTEST_RECIPIENT: &str =
    "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h";

#[test]
fn go_age_plugin_tag_and_tagtest() {
    setup();
    let (Some(age), Some(_), Some(_)) = (
        peer("AGE_BIN", "age"),
        peer("AGE_PLUGIN_TAG_BIN", "age-plugin-tag"),
        peer("AGE_PLUGIN_TAGTEST_BIN", "age-plugin-tagtest"),
    ) else {
        return;
    };
    let tagtest = plugin::Identity::without_data("tagtest").unwrap();
    let plain = bytes(5, 2000);
    // Go age encrypts to the tag recipient; we decrypt through tagtest.
    let sealed = ok(Command::new(&age).arg("-r").arg(TAGTEST_RECIPIENT), &plain);
    assert_eq!(open(&[&tagtest], &sealed).unwrap(), plain);
    // We encrypt through age-plugin-tag (age1tag1… names it).
    let recipient: plugin::Recipient = TAGTEST_RECIPIENT.parse().unwrap();
    assert_eq!(recipient.name(), "tag");
    let sealed = seal(&[&recipient], &plain).unwrap();
    assert_eq!(open(&[&tagtest], &sealed).unwrap(), plain);
    let dir = TempDir::new("tagtest");
    let sealed_path = dir.file("sealed.age", &sealed);
    assert_eq!(
        ok(
            Command::new(&age)
                .args(["-d", "-j", "tagtest"])
                .arg(&sealed_path),
            b""
        ),
        plain
    );
}
