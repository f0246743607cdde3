//! b → c, through a nested group.
use crate::{
    c::{self, gamma},
};

pub struct Bee;

pub fn beta() {
    gamma();
}
