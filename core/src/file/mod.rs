//! What every weights file shares, whatever its family: the header
//! ([`FileHeader`]: magic, version, architecture hash), the reading cursor
//! ([`Reader`]) and the typed errors ([`WeightsError`]).
//!
//! Each family's own layout is in its folder ([`crate::deepchess::format`],
//! [`crate::learned`], [`crate::alphazero`]); [`crate::weights`] reads any
//! of them.

pub mod error;
pub mod format;
pub mod header;
pub mod params;
pub mod reader;

pub use error::{UtilityDefect, WeightsError};
pub use format::Format;
pub use header::FileHeader;
pub use params::{FloatParams, Params, read_params, write_params};
pub use reader::{
    MAX_CP_SCALE, MAX_DESCRIPTION, Reader, is_valid_cp_scale, read_cp_scale, write_description, write_u32,
};
