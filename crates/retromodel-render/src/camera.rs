//! Orbit camera and automatic framing from the model bounds.

use glam::{Mat4, Vec3};

/// The sphere a camera frames: centre and radius in the Y-up world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Framing {
    /// Centre of the model's bounds (Y-up).
    pub center: [f32; 3],
    /// Half the diagonal of the bounds.
    pub radius: f32,
}

/// An orbit camera around the model's centre: angles in degrees, distance in model units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Turn around the up axis: 0 looks at the model's front (Quake models face +X), 90 from
    /// its left side.
    pub yaw: f32,
    /// Height angle: 0 level, positive from above.
    pub pitch: f32,
    /// Distance from the centre; `None` frames the whole model.
    pub distance: Option<f32>,
    /// Vertical field of view in degrees.
    pub fov_y: f32,
}

impl Default for Camera {
    /// A three-quarter view from slightly above, framing the whole model.
    fn default() -> Camera {
        Camera {
            yaw: 30.0,
            pitch: 15.0,
            distance: None,
            fov_y: 40.0,
        }
    }
}

impl Camera {
    /// Parses `auto`, `yaw,pitch` or `yaw,pitch,distance` (degrees, degrees, units).
    pub fn parse(s: &str) -> Result<Camera, String> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(Camera::default());
        }
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let num = |p: &str| -> Result<f32, String> {
            p.parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("camera: {p:?} is not a number"))
        };
        match parts.as_slice() {
            [y, p] => Ok(Camera {
                yaw: num(y)?,
                pitch: num(p)?,
                ..Camera::default()
            }),
            [y, p, d] => {
                let d = num(d)?;
                if d <= 0.0 {
                    return Err(format!("camera: distance {d} is not positive"));
                }
                Ok(Camera {
                    yaw: num(y)?,
                    pitch: num(p)?,
                    distance: Some(d),
                    ..Camera::default()
                })
            }
            _ => Err(format!(
                "camera: {s:?} is not auto, yaw,pitch or yaw,pitch,distance"
            )),
        }
    }

    /// The distance that fits the framing sphere in the view at `aspect` (width / height).
    pub fn fit_distance(&self, framing: &Framing, aspect: f32) -> f32 {
        let half_y = (self.fov_y.to_radians() * 0.5).max(1e-3);
        let half_x = (half_y.tan() * aspect.max(1e-3)).atan();
        let half = half_y.min(half_x);
        (framing.radius / half.sin()) * 1.05
    }

    /// The eye position (Y-up world).
    pub fn eye(&self, framing: &Framing, aspect: f32) -> Vec3 {
        let d = self
            .distance
            .unwrap_or_else(|| self.fit_distance(framing, aspect));
        let (yaw, pitch) = (self.yaw.to_radians(), self.pitch.to_radians());
        // Z-up direction (cos p cos y, cos p sin y, sin p), in Y-up (x, z, -y).
        let dir = Vec3::new(
            pitch.cos() * yaw.cos(),
            pitch.sin(),
            -(pitch.cos() * yaw.sin()),
        );
        Vec3::from(framing.center) + dir * d
    }

    /// Projection times view for an image of `aspect` (width / height).
    pub fn view_proj(&self, framing: &Framing, aspect: f32) -> Mat4 {
        let center = Vec3::from(framing.center);
        let eye = self.eye(framing, aspect);
        let dist = (eye - center).length().max(1e-4);
        let r = framing.radius.max(1e-4);
        let near = (dist - 2.0 * r).max(dist * 0.01).max(1e-3);
        let far = dist + 2.0 * r;
        let up = if self.pitch.abs() > 89.9 {
            Vec3::X
        } else {
            Vec3::Y
        };
        let view = Mat4::look_at_rh(eye, center, up);
        let proj = Mat4::perspective_rh(self.fov_y.to_radians(), aspect, near, far);
        proj * view
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!(Camera::parse("auto").unwrap(), Camera::default());
        let c = Camera::parse("90,10,200").unwrap();
        assert_eq!((c.yaw, c.pitch, c.distance), (90.0, 10.0, Some(200.0)));
        assert!(Camera::parse("1,2,3,4").is_err());
        assert!(Camera::parse("1,x").is_err());
        assert!(Camera::parse("1,2,-3").is_err());
    }
}
