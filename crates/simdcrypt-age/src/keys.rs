//! Identity and recipient files as age reads them.
