//! `Bytes`: the Rust type of `.tool`'s `bytes`, written in JSON as standard base64.

use std::ops::{Deref, DerefMut};

use crate::args::{self, ArgError, Decode, Path, Reader, formats};

/// Binary data that travels as a base64 string (standard alphabet, with padding).
///
/// A newtype rather than `Vec<u8>` because serde writes a `Vec<u8>` as an array of numbers,
/// while the schema of `bytes` is `{"type":"string","contentEncoding":"base64"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// The bytes, without copying.
    pub fn into_vec(self) -> Vec<u8> {
        self.0
    }
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes(v)
    }
}

impl From<&[u8]> for Bytes {
    fn from(v: &[u8]) -> Self {
        Bytes(v.to_vec())
    }
}

impl From<Bytes> for Vec<u8> {
    fn from(b: Bytes) -> Self {
        b.0
    }
}

impl serde::Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&formats::encode_base64(&self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Base64;
        impl serde::de::Visitor<'_> for Base64 {
            type Value = Bytes;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a base64 string")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Bytes, E> {
                formats::decode_base64(s)
                    .map(Bytes)
                    .ok_or_else(|| E::custom("expected base64 data"))
            }
        }
        deserializer.deserialize_str(Base64)
    }
}

impl Decode for Bytes {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        args::bytes(r, path).map(Bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_padded_base64_and_reads_it_back() {
        let b = Bytes(b"hi!?".to_vec());
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(json, r#""aGkhPw==""#);
        assert_eq!(serde_json::from_str::<Bytes>(&json).unwrap(), b);
        assert!(serde_json::from_str::<Bytes>(r#""aGkhPw""#).is_err());
        assert!(serde_json::from_str::<Bytes>("[1,2]").is_err());
        assert_eq!(serde_json::to_string(&Bytes::default()).unwrap(), r#""""#);
    }

    #[test]
    fn behaves_as_a_byte_slice() {
        let mut b = Bytes::from(&b"abc"[..]);
        b[0] = b'x';
        assert_eq!(&*b, b"xbc");
        assert_eq!(b.as_ref(), b"xbc");
        assert_eq!(Vec::from(b.clone()), b"xbc".to_vec());
        assert_eq!(b.into_vec(), b"xbc".to_vec());
        assert_eq!(Bytes::from(vec![1u8]), Bytes(vec![1]));
    }
}
