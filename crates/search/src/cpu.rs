//! What the processor can do, for engines that compile their inner loop
//! twice.
//!
//! Portable x86-64 builds cannot assume the bit-manipulation instructions
//! (BMI1 and BMI2, POPCNT, LZCNT) that every x86-64 processor since about
//! 2013 has, yet search loops are made of lowest-bit, population-count and
//! variable-shift operations that those instructions do in one step each.
//! An engine can compile its loop a second time with
//! `#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]` and run that copy
//! when [`has_bmi`] says the processor has them.

/// Whether the processor has BMI1, BMI2, POPCNT and LZCNT (always false
/// off x86-64). The answer is detected once and cached by the standard
/// library.
#[cfg(target_arch = "x86_64")]
pub fn has_bmi() -> bool {
    std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
}

/// Whether the processor has BMI1, BMI2, POPCNT and LZCNT (always false
/// off x86-64).
#[cfg(not(target_arch = "x86_64"))]
pub fn has_bmi() -> bool {
    false
}
