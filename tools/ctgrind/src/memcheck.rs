//! Memcheck's log, read: its errors (the message and the stack of each)
//! and its error summary.

/// One error memcheck reported.
#[derive(Debug, Default)]
pub struct Report {
    /// Its message ("Conditional jump or move depends on uninitialised
    /// value(s)").
    pub message: String,
    /// Its stack, innermost first: each frame's function and place, as
    /// memcheck prints them after the address.
    pub frames: Vec<String>,
}

impl Report {
    /// Whether a frame's function starts with `prefix` (a demangled path,
    /// `<…>` impl blocks looked into).
    pub fn has_frame(&self, prefix: &str) -> bool {
        self.frames
            .iter()
            .any(|f| function(f).trim_start_matches('<').starts_with(prefix))
    }

    /// The crate of the innermost frame that is neither the standard
    /// library nor a helper every crate calls (`subtle`, `zeroize`), nor
    /// valgrind's own replacement functions: whose code the error is in.
    pub fn owner(&self) -> &str {
        for frame in &self.frames {
            let function = function(frame).trim_start_matches('<');
            let Some((krate, _)) = function.split_once("::") else {
                continue;
            };
            if !matches!(krate, "core" | "alloc" | "std" | "subtle" | "zeroize") {
                return krate;
            }
        }
        "(unknown)"
    }
}

/// The function of a frame: `at 0x1234: NAME (FILE:LINE)` → `NAME`.
fn function(frame: &str) -> &str {
    let after = frame.split_once(": ").map_or(frame, |(_, rest)| rest);
    after.rsplit_once(" (").map_or(after, |(name, _)| name)
}

/// The errors of a memcheck log and the count of its `ERROR SUMMARY`
/// line (none when the run did not get that far).
pub fn read(log: &str) -> (Vec<Report>, Option<usize>) {
    let mut reports = Vec::new();
    let mut summary = None;
    let mut message: Option<String> = None;
    for line in log.lines() {
        // Every line starts with `==PID== `.
        let text = match line.strip_prefix("==") {
            Some(rest) => rest.split_once("== ").map_or("", |(_, text)| text),
            None => continue,
        };
        let trimmed = text.trim_start();
        if trimmed.starts_with("at 0x") || trimmed.starts_with("by 0x") {
            if let Some(message) = message.take() {
                reports.push(Report {
                    message,
                    frames: Vec::new(),
                });
            }
            if let Some(report) = reports.last_mut() {
                report.frames.push(trimmed.to_owned());
            }
        } else if let Some(rest) = text.strip_prefix("ERROR SUMMARY: ") {
            summary = rest.split(' ').next().and_then(|n| n.parse().ok());
        } else if !text.is_empty() && !text.starts_with(' ') {
            message = Some(text.to_owned());
        } else {
            message = None;
        }
    }
    (reports, summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
==41== Memcheck, a memory error detector
==41== Command: ctgrind control aes-tables
==41== 
==41== Use of uninitialised value of size 8
==41==    at 0x10F2A3: simdcrypt::aes::tables::rounds (tables.rs:101)
==41==    by 0x10F2A3: simdcrypt::aes::tables::encrypt_block (tables.rs:125)
==41==    by 0x1234: <simdcrypt::aes::Aes<K> as simdcrypt::block::BlockCipher>::encrypt_one (mod.rs:400)
==41== 
==41== Conditional jump or move depends on uninitialised value(s)
==41==    at 0x4848: bcmp (vg_replace_strmem.c:1234)
==41==    by 0x11: subtle::black_box (lib.rs:1)
==41==    by 0x12: curve25519_dalek::field::FieldElement::invert (field.rs:9)
==41== 
==41== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)
";

    #[test]
    fn reads_errors_frames_and_the_summary() {
        let (reports, summary) = read(LOG);
        assert_eq!(summary, Some(2));
        assert_eq!(reports.len(), 2);
        assert_eq!(reports[0].message, "Use of uninitialised value of size 8");
        assert_eq!(reports[0].frames.len(), 3);
        assert!(reports[0].has_frame("simdcrypt::aes::tables::"));
        assert!(reports[0].has_frame("simdcrypt::aes::Aes"));
        assert!(!reports[0].has_frame("simdcrypt::aes::reference::"));
        assert_eq!(reports[0].owner(), "simdcrypt");
        assert_eq!(reports[1].owner(), "curve25519_dalek");
    }
}
