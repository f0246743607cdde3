//! Tagged recipients against age itself: files encrypted here to the fixed
//! recipients of age's test plugin (`age-plugin-tagtest`, whose identities
//! are derived from a public seed) are decrypted by `age -d -j tagtest`
//! (both found on `PATH`, or through `AGE_BIN` /
//! `AGE_PLUGIN_TAGTEST_BIN`; a missing tool is said and the check skipped),
//! and the post-quantum rule is kept.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::data;
use simdcrypt_age::{Error, Recipient as _, encrypt, pq, tag, x25519};

/// `classicRecipient` of age's `tag/internal/age-plugin-tagtest`.
const CLASSIC: &str = "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h";

/// `hybridRecipient` of age's `tag/internal/age-plugin-tagtest`.
const HYBRID: &str = "age1tagpq14h4z7cks9sxftfc8tq4xektt4854ur9rv76tvujdvtzk2fmyywkvh9z2emz3x4epvhz7qdt2v7uksyyq2cdzf3k04ny0g5sc3u4heqh3r9v4cnwhfjw0a2azpgmnk9xk02wvywt5szcq6q3jvwsjxvkn3tsk52vqjczdcvc398ym4j6cvqas4w99gkgt7ur3fmt4g873phr23tgxw3f7wgsz9zxz7m8cp27vpq3h5vc8nssjemtr2etmtmqkg4fzn2u9x9zvtysuya5yrytgx482ftx9864h8a6pprarxd3d0qe8nw2at5ekg3tsahtef7kawasxjamyckw2ans6v933vuypcfrra32f89r2v72mka9hhc55s49xe2khfsq7w9r2zynuzfx4fg6v7jjncsc87rw2yy8qp8hr27edus6zw5xd6m3hax2nxhl2dys9792z3wp5c034sfkrxe86guj7pfdh7sytzrufl9euhuhyf9w6c7z2nwf7v5v8f2s4gplgvfx4jj4le22k2qn242qkqkcwx7llfyrct7jm2wcv0ytypeh6h93ezgtd7q6zr428qze3dec5jxlc5xxjetyephp42fljft3s02p0570kjwyfeyjcnks2vglkvyus5g9l4z6m0gf8wu22ygfm40028txwjlxvvgnn7c36z783c6tmc9k5nef8nucj6u3ustff5vhtnzhnscsvsz79wzrkv3sujtntx4wezucy6lp49flmnyydn3khk2xsesw0ekn4u44nzqw2g2rjyrrl7crshlzttgpe0jvqycjzp9kmtz23t3yu0w9j4n344nnrf88k2jqqfpjxte38pcn0epr879pqsuvajxrkmsas89pvfrzwcewneujn08guj5pvvrtn5hzzg2y6u4wwjqqxx4x8w65yc4dchf750dft8kgcttt2f6j0j5v8s7tkaua78tte7artdfar544vl0rau79h95mc4ghp887z82s6rq93txpkvan86n963kagqkldngnkjcn28zdrh38vdxj002zqs9mx7zjvg3ynzdfhfakkynt9fyqpaxpsdrsqrycuhw5ykwgjz6wldef7xtu6p689234hstxe7v8e5422f2dy8ystn57z3fvy9yfrm4t3lye6ejk5n6x8zqexmql7lx965xcxuuy38xzyt8j9qprnwgfqgx54l4tnjdpzdde6xgmwtnpkfwvyr7rkgnavvjn6a3e56wtvjx3evmhjjxvukpq5zqrj0s4sntkz3yeszs5dty8q0q6m7dgp6mjpvaer0c4343g72eycfqzkjupeaemh0n8e935hqs8fh3jgk7fzyxctzuqlx6d2q9jaf8r9wu4sjxj5w6ppw7m9c3hxrzpcv2uek3kxnndgf2hd99q9v2ux8pjkv29ntslvnvhy09dvcy9578rt89gf4cj4cu79zjxtlj3dpct6rjme02zj3qspsade96njkkufu9zuq2lk3qwvddpxjkqm2hnpqwck54zug7ctvkgvk325lwkg4q5rf73zkgys5e9y8jqc96ntdyl4r78lgtw4k5uljk5ttf46s3gc0rq0jwmddnxt875twwq92505zh3zkse5ag2dhjjxyfzkn7xv3j0kv9r3jzpvgep8fq6z8mar509u4fvnhvthp2ah0r45lsyq0mm6fwkcs30v8k9wzvgt6uvcty6qsjvarjs3htym69zu43m4jd3k4tllrr8c05v6p6spuhup4hkk2p9fp9lxafe3pntcn4nk83gzhjjpcjwyg7jcyz5uancu0fakgz27up7ymzp2xv3sqyqewkkqynskw9qkvysrncxj0cy7dt6q8dsseuwmc2urfmcvkykf82wfa54t85hqx8gywhmhzunm2x0d66a4pwl0xl78fhkces5dpq8pfnp35m5a3u8vdam64zx5s5x9cmnrx3zr066f4f8hlecqnq2fd5quw79ljg3q5nvs6ggmm4gkc";

/// The path of a peer tool: `$VAR`, else `name` on `PATH`; `None` (said on
/// stderr) when absent.
fn peer(var: &str, name: &str) -> Option<PathBuf> {
    let found = std::env::var_os(var).map(PathBuf::from).or_else(|| {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!("skipped: `{name}` not found (set {var} or put it on PATH; see the README)");
    }
    found
}

/// What `age -d -j tagtest` makes of `sealed`, the plugin's folder first
/// on `PATH` so that age finds it.
fn age_decrypt(age: &Path, plugin: &Path, sealed: &[u8]) -> Vec<u8> {
    let path = std::env::join_paths(plugin.parent().map(Path::to_path_buf).into_iter().chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut child = Command::new(age)
        .args(["-d", "-j", "tagtest"])
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let sealed = sealed.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&sealed));
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert!(
        out.status.success(),
        "age -d -j tagtest failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    written.unwrap();
    out.stdout
}

fn seal(recipients: &[&dyn simdcrypt_age::Recipient], plain: &[u8]) -> Vec<u8> {
    let mut sealed = Vec::new();
    encrypt(recipients, plain, &mut sealed).unwrap();
    sealed
}

#[test]
fn the_plugins_recipients_parse_and_print_back() {
    for text in [CLASSIC, HYBRID] {
        let recipient: tag::Recipient = text.parse().unwrap();
        assert_eq!(recipient.to_string(), text);
    }
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    assert!(!classic.is_post_quantum());
    assert!(hybrid.is_post_quantum());
    assert_eq!(classic.to_bytes().len(), 33);
    assert_eq!(hybrid.to_bytes().len(), 1184 + 65);
}

#[test]
fn hybrid_goes_with_post_quantum_recipients_only() {
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    let x25519 = x25519::Identity::generate().unwrap().to_public();
    let pq = pq::Identity::generate().unwrap().to_public();
    for other in [&classic as &dyn simdcrypt_age::Recipient, &x25519] {
        let mut sealed = Vec::new();
        assert!(matches!(
            encrypt(&[&hybrid, other], &b"x"[..], &mut sealed),
            Err(Error::MixedPostQuantum)
        ));
    }
    seal(&[&hybrid, &pq], b"x");
    seal(&[&classic, &x25519], b"x");
}

#[test]
fn age_decrypts_what_we_encrypt_to_tagged_recipients() {
    let (Some(age), Some(plugin)) = (
        peer("AGE_BIN", "age"),
        peer("AGE_PLUGIN_TAGTEST_BIN", "age-plugin-tagtest"),
    ) else {
        return;
    };
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    let pq = pq::Identity::generate().unwrap().to_public();
    let x25519 = x25519::Identity::generate().unwrap().to_public();
    let plain = data(3 * 65536 + 17, 11);
    let cases: [&[&dyn simdcrypt_age::Recipient]; 4] = [
        &[&classic],
        &[&hybrid],
        &[&pq, &hybrid],
        &[&x25519, &classic],
    ];
    for recipients in cases {
        let opened = age_decrypt(&age, &plugin, &seal(recipients, &plain));
        assert!(opened == plain, "age could not read our file");
    }
}
