//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod forward;
