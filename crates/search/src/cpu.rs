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

/// Whether the processor's PDEP and PEXT (BMI2) take a few cycles, so that
/// a search may use them on its hot path: true on Intel processors with
/// BMI2 and on AMD ones from Zen 3 on (family 19h). AMD's earlier
/// processors with BMI2 (Excavator, Zen 1 and 2, and Hygon's Zen-based
/// ones) run them in microcode, one step per bit of the mask, slower than
/// the loops they replace; other vendors are not assumed fast.
#[cfg(target_arch = "x86_64")]
pub fn has_fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let vendor = __cpuid(0);
    let name: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx]
        .iter()
        .flat_map(|r| r.to_le_bytes())
        .collect();
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = match base {
        0xF => base + ((eax >> 20) & 0xFF),
        _ => base,
    };
    match &name[..] {
        b"GenuineIntel" => true,
        b"AuthenticAMD" => family >= 0x19,
        _ => false,
    }
}

/// Whether the processor's PDEP and PEXT are fast (always false off
/// x86-64).
#[cfg(not(target_arch = "x86_64"))]
pub fn has_fast_pdep() -> bool {
    false
}
