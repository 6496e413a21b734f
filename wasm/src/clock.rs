//! Milliseconds for the UCI engine's clock: `Date.now()` in a browser,
//! the system clock elsewhere (native unit tests).

/// The time in ms since the Unix epoch.
#[cfg(target_arch = "wasm32")]
pub fn now() -> u64 {
    js_sys::Date::now() as u64
}

/// The time in ms since the Unix epoch.
#[cfg(not(target_arch = "wasm32"))]
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
