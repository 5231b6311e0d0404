//! Animated GIF output of rendered frames.

/// Encodes RGBA8 frames of `width` x `height` as a looping GIF, each shown for
/// `delay_cs` hundredths of a second. Colours are quantised per frame (NeuQuant).
pub fn encode_gif(
    width: u16,
    height: u16,
    frames: &mut [Vec<u8>],
    delay_cs: u16,
) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, width, height, &[]).map_err(|e| e.to_string())?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        for rgba in frames.iter_mut() {
            let mut frame = gif::Frame::from_rgba_speed(width, height, rgba, 10);
            frame.delay = delay_cs.max(2);
            enc.write_frame(&frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}
