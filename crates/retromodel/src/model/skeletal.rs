//! Skeletal animation and camera paths in the format-neutral model.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

/// A joint's transform relative to its parent (or to the object for a root).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointTransform {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation as a unit quaternion `[x, y, z, w]` (column-vector convention, as glTF).
    pub rotation: [f32; 4],
}

impl JointTransform {
    /// No translation, no turn: a joint at its parent.
    pub const IDENTITY: JointTransform = JointTransform {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
}

/// A skeletal animation: local joint transforms per frame, sampled at a fixed rate.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletalAnimation {
    /// Name (the md5anim's file stem).
    pub name: String,
    /// Frames per second.
    pub fps: f32,
    /// Per frame, one local transform per joint of [`crate::model::Model::joints`], in joint
    /// order. A [`Frames`] reads as `Vec<Vec<JointTransform>>`; a format may keep its frames
    /// in their stored form until they are first read (IQM's quantised channels).
    pub frames: Frames,
    /// Per frame, the bounds `[min, max]` of the animated mesh, when the file stores them.
    pub bounds: Vec<[[f32; 3]; 2]>,
    /// Whether the last frame repeats the first (Doom 3's looping cycles).
    pub loops: bool,
    /// Per-frame weight scales of joints (the Quake II re-release's `.md5scale`), or `None`
    /// when nothing scales.
    pub weight_scales: Option<WeightScales>,
}

/// A format's per-frame data kept in its stored form, decoded when first read (see
/// [`Stored::from_source`]): `T` is one frame's value (a joint transform per joint for
/// [`Frames`], a scale per joint for [`ScaleFrames`]).
pub trait FrameSource<T>: fmt::Debug + Send + Sync + std::panic::RefUnwindSafe {
    /// The number of frames.
    fn frame_count(&self) -> usize;
    /// Every frame, decoded.
    fn decode(&self) -> Vec<T>;
}

/// The frames of a [`SkeletalAnimation`]: per frame, one local transform per joint.
pub type Frames = Stored<Vec<JointTransform>>;

/// The joint scales of an animation ([`crate::model::Model::animation_scales`]): per frame,
/// one scale per joint.
pub type ScaleFrames = Stored<Vec<[f32; 3]>>;

/// Per-frame values (`Vec<T>`), decoded or still in a format's stored form.
///
/// It dereferences to `Vec<T>`, so it reads and changes like one. A format whose frames are
/// stored compactly (IQM's 16-bit channels) hands over a [`FrameSource`] instead: loading
/// then costs no decoding, and the frames are decoded on first read, once per value (by
/// whichever thread reads first). A clone made before that shares the source and decodes on
/// its own first read; the source (the stored form) is kept until the frames are changed.
/// Two are equal when their decoded frames are. `{:?}` shows stored frames by their count.
///
/// ```
/// use retromodel::model::{Frames, JointTransform};
/// let t = JointTransform { translation: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0] };
/// let mut frames = Frames::from(vec![vec![t]; 2]);
/// frames.push(vec![t]);
/// assert_eq!(frames.len(), 3);
/// assert_eq!(frames.count(), 3);
/// ```
pub struct Stored<T> {
    decoded: OnceLock<Vec<T>>,
    source: Option<Arc<dyn FrameSource<T>>>,
}

impl<T> Default for Stored<T> {
    fn default() -> Self {
        Stored {
            decoded: OnceLock::new(),
            source: None,
        }
    }
}

impl<T> Stored<T> {
    /// Frames that `source` decodes when they are first read.
    pub fn from_source(source: Arc<dyn FrameSource<T>>) -> Stored<T> {
        Stored {
            decoded: OnceLock::new(),
            source: Some(source),
        }
    }

    /// The number of frames, without decoding stored frames.
    pub fn count(&self) -> usize {
        match (self.decoded.get(), &self.source) {
            (Some(d), _) => d.len(),
            (None, Some(s)) => s.frame_count(),
            (None, None) => 0,
        }
    }

    /// Whether the frames are still in their stored form (not decoded yet).
    pub fn is_stored(&self) -> bool {
        self.decoded.get().is_none() && self.source.is_some()
    }

    /// The decoded frames, taken out.
    pub fn into_vec(mut self) -> Vec<T> {
        std::mem::take(&mut *self)
    }

    fn get(&self) -> &Vec<T> {
        self.decoded
            .get_or_init(|| self.source.as_ref().map(|s| s.decode()).unwrap_or_default())
    }
}

impl<T> Deref for Stored<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        self.get()
    }
}

impl<T> DerefMut for Stored<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        self.get();
        // Changed frames are no longer the stored ones.
        self.source = None;
        self.decoded.get_mut().expect("decoded just above")
    }
}

impl<T> From<Vec<T>> for Stored<T> {
    fn from(frames: Vec<T>) -> Stored<T> {
        Stored {
            decoded: OnceLock::from(frames),
            source: None,
        }
    }
}

impl<T> FromIterator<T> for Stored<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Stored<T> {
        Stored::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<T: Clone> Clone for Stored<T> {
    fn clone(&self) -> Stored<T> {
        match (self.decoded.get(), &self.source) {
            // Still stored: the copy shares the source and decodes on its own first read.
            (None, Some(s)) => Stored::from_source(Arc::clone(s)),
            _ => Stored::from(self.get().clone()),
        }
    }
}

impl<T: PartialEq> PartialEq for Stored<T> {
    fn eq(&self, other: &Stored<T>) -> bool {
        match (&self.source, &other.source) {
            // The same stored frames, neither changed: equal without decoding.
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => **self == **other,
        }
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for Stored<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == *other
    }
}

impl<T: fmt::Debug> fmt::Debug for Stored<T> {
    /// Decoded frames as the `Vec` they are; stored ones by their count, without decoding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.decoded.get(), &self.source) {
            (None, Some(s)) => f
                .debug_struct("Stored")
                .field("frames", &s.frame_count())
                .finish_non_exhaustive(),
            _ => fmt::Debug::fmt(&**self, f),
        }
    }
}

impl<'a, T> IntoIterator for &'a Stored<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Stored<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Joint scales as the Quake II re-release applies them (its `.md5scale` files, read by
/// q2pro's `MD5_LoadScales`): the scale `s` of joint `j` in frame `f` multiplies the offsets
/// of the weights on `j` (`pos_j + s · rotate(orient_j, weight)`), so it scales the vertices
/// the joint carries about the joint without touching its children, and is not interpolated
/// between frames (a pose between frames `a` and `b` uses `b`'s). A joint whose
/// `scale_positions` flag is set also has its animated (parent-relative) position multiplied by
/// its scale before it is composed with its parent; that moves its children too. Scale 0 hides
/// what the joint carries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WeightScales {
    /// Per frame of the animation, one scale per joint of [`crate::model::Model::joints`]
    /// (1 where the file says nothing).
    pub frames: Vec<Vec<f32>>,
    /// Per joint, whether its animated position is scaled too.
    pub scale_positions: Vec<bool>,
}

impl WeightScales {
    /// Scales of 1 for `frames` frames of `joints` joints, no position scaled.
    pub fn unit(frames: usize, joints: usize) -> WeightScales {
        WeightScales {
            frames: vec![vec![1.0; joints]; frames],
            scale_positions: vec![false; joints],
        }
    }

    /// Whether joint `j` scales in some frame or scales its position.
    pub fn scales_joint(&self, j: usize) -> bool {
        self.scale_positions.get(j).copied().unwrap_or(false)
            || self
                .frames
                .iter()
                .any(|f| f.get(j).is_some_and(|s| *s != 1.0))
    }

    /// Whether nothing scales (every scale 1, no position scaled).
    pub fn is_unit(&self) -> bool {
        !self.scale_positions.iter().any(|b| *b) && self.frames.iter().flatten().all(|s| *s == 1.0)
    }

    /// The scale of joint `j` in frame `f` (1 outside the table).
    pub fn get(&self, f: usize, j: usize) -> f32 {
        self.frames
            .get(f)
            .and_then(|row| row.get(j))
            .copied()
            .unwrap_or(1.0)
    }
}

/// One camera key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraKey {
    /// Position.
    pub position: [f32; 3],
    /// Orientation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Horizontal field of view in degrees.
    pub fov_degrees: f32,
}

/// A camera path (Doom 3 md5camera).
#[derive(Debug, Clone, PartialEq)]
pub struct CameraPath {
    /// Frames per second.
    pub fps: f32,
    /// Frames at which the camera cuts instead of moving.
    pub cuts: Vec<u32>,
    /// One key per frame.
    pub keys: Vec<CameraKey>,
}

#[cfg(test)]
mod stored_tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Three frames of one value each, counting its decodings.
    #[derive(Debug, Default)]
    struct Counting(AtomicUsize);

    impl FrameSource<Vec<u8>> for Counting {
        fn frame_count(&self) -> usize {
            3
        }
        fn decode(&self) -> Vec<Vec<u8>> {
            self.0.fetch_add(1, Ordering::SeqCst);
            vec![vec![1], vec![2], vec![3]]
        }
    }

    #[test]
    fn stored_frames_decode_once_on_first_read() {
        let source = Arc::new(Counting::default());
        let decodings = || source.0.load(Ordering::SeqCst);
        let mut frames: Stored<Vec<u8>> = Stored::from_source(source.clone());
        let copy = frames.clone();
        // Counting, printing and comparing to a copy of the same source decode nothing.
        assert_eq!((frames.count(), frames.is_stored()), (3, true));
        assert_eq!(format!("{frames:?}"), "Stored { frames: 3, .. }");
        assert!(frames == copy);
        assert_eq!(decodings(), 0);
        // The first read decodes, once.
        assert_eq!(frames[1], vec![2]);
        assert_eq!(frames.len(), 3);
        assert_eq!((decodings(), frames.is_stored()), (1, false));
        // The clone made before decodes on its own read.
        assert_eq!(copy[0], vec![1]);
        assert_eq!(decodings(), 2);
        // Changing them leaves the stored form behind.
        frames.push(vec![4]);
        assert_eq!((frames.count(), decodings()), (4, 2));
        assert!(frames != copy);
        assert_eq!(format!("{frames:?}"), "[[1], [2], [3], [4]]");
    }
}
