//! d names a only where it does not count: crate::a in this comment,
/* a block comment: crate::a::Alpha */
//! a string, a longer word, and items under #[cfg(test)].
pub const VALUE: u32 = 1;

pub fn message() -> &'static str {
    "see crate::a::Alpha"
}

pub fn raw() -> &'static str {
    r#"crate::a"#
}

pub fn quote() -> char {
    '"'
}

pub fn not_ours() {
    notcrate::a::thing();
}

#[cfg(test)]
use crate::a::Alpha;

#[cfg(test)]
mod tests {
    use crate::a;

    #[test]
    fn t() {
        let _ = crate::a::uses();
    }
}
