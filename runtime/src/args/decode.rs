//! [`Decode`] for the Rust types `.tool` types map to: integers (range checked), floats,
//! `bool`, `String`, `char`, `Option`, `Box`, `Vec`, maps, and `json` / `object` values.

use std::collections::{BTreeMap, HashMap};

use super::error::ArgError;
use super::path::Path;
use super::read::{self, Decode};
use super::reader::{Kind, Reader};

macro_rules! decode_int {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            #[inline]
            fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
                if r.kind() != Kind::Number {
                    return Err(read::wrong_type(r, path, "an integer"));
                }
                let text = r.read_number().map_err(|_| ArgError::bare(path))?;
                // Fast path: a plain literal that fits.
                if let Ok(v) = text.parse::<$t>() {
                    return Ok(v);
                }
                if r.read_through_f64() && read::rounded_by_f64(text) {
                    return Err(ArgError::new(path, read::ROUNDED_BY_F64));
                }
                let v = read::integer_text(text, path, <$t>::MIN as i128, <$t>::MAX as i128)?;
                <$t>::try_from(v).map_err(|_| ArgError::expected(path, "an integer"))
            }
        }
    )*};
}
decode_int!(i8, i16, i32, i64, u8, u16, u32, u64, i128);

impl Decode for f64 {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::number(r, path)
    }
}

impl Decode for f32 {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::number(r, path).map(super::number::to_f32)
    }
}

impl Decode for bool {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.kind() == Kind::Bool
            && let Some(b) = r.read_bool()
        {
            return Ok(b);
        }
        Err(read::wrong_type(r, path, "a boolean"))
    }
}

impl Decode for String {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        Ok(read::string(r, path)?.into_owned())
    }
}

impl Decode for char {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let s = read::string(r, path)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(ArgError::new(path, "Expected exactly one character.")),
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.eat_null() {
            Ok(None)
        } else {
            T::read(r, path).map(Some)
        }
    }
}

impl<T: Decode> Decode for Box<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        T::read(r, path).map(Box::new)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = Vec::new();
        read::array(r, path, |r, i| {
            out.push(T::read(r, &path.index(i))?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<T: Decode> Decode for BTreeMap<String, T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = BTreeMap::new();
        read::map_into(r, path, T::read, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }
}

impl<T: Decode, S: std::hash::BuildHasher + Default> Decode for HashMap<String, T, S> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = HashMap::default();
        read::map_into(r, path, T::read, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }
}

/// `json`: any value.
impl Decode for serde_json::Value {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::json(r, path)
    }
}

/// `object`: any object.
impl Decode for serde_json::Map<String, serde_json::Value> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.kind() != Kind::Object {
            return Err(read::wrong_type(r, path, "an object"));
        }
        match read::json(r, path)? {
            serde_json::Value::Object(map) => Ok(map),
            _ => Err(ArgError::expected(path, "an object")),
        }
    }
}
