//! Properties of the decoding fast paths, checked against serde_json and plain definitions.

use proptest::prelude::*;
use toolidl_runtime::args::{self, Decode, Path, Reader, check, formats};
use toolidl_runtime::uri_template;

proptest! {
    #[test]
    fn integers_decode_exactly_and_respect_their_type(v in any::<i64>()) {
        let root = Path::Root;
        let p = root.field("n");
        prop_assert_eq!(i64::read(&mut Reader::new(&v.to_string()), &p), Ok(v));
        let as_i32 = i32::read(&mut Reader::new(&v.to_string()), &p);
        prop_assert_eq!(as_i32.is_ok(), i32::try_from(v).is_ok());
        let as_u8 = u8::read(&mut Reader::new(&v.to_string()), &p);
        prop_assert_eq!(as_u8.ok(), u8::try_from(v).ok());
    }

    #[test]
    fn strings_decode_to_what_serde_json_encoded(s in any::<String>()) {
        let root = Path::Root;
        let text = serde_json::to_string(&s).unwrap();
        prop_assert_eq!(String::read(&mut Reader::new(&text), &root.field("s")), Ok(s));
    }

    #[test]
    fn length_counts_code_points(s in any::<String>(), min in 0usize..12, extra in 0usize..12) {
        let root = Path::Root;
        let p = root.field("s");
        let max = min + extra;
        let n = s.chars().count();
        let ok = check::length(&s, Some(min), Some(max), &p).is_ok();
        prop_assert_eq!(ok, n >= min && n <= max);
        prop_assert_eq!(check::length(&s, None, Some(max), &p).is_ok(), n <= max);
        prop_assert_eq!(check::length(&s, Some(min), None, &p).is_ok(), n >= min);
    }

    #[test]
    fn base64_round_trips(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(formats::decode_base64(&formats::encode_base64(&data)), Some(data));
    }

    #[test]
    fn map_keys_render_as_json_strings(key in any::<String>()) {
        let root = Path::Root;
        let m = root.field("m");
        let at = m.key(&key);
        let rendered = at.render();
        let inner = rendered.strip_prefix("m[").and_then(|r| r.strip_suffix(']')).unwrap();
        prop_assert_eq!(serde_json::from_str::<String>(inner).unwrap(), key);
    }

    #[test]
    fn object_walk_sees_every_entry_in_order(entries in proptest::collection::vec(("[a-z]{1,4}", any::<i32>()), 0..8)) {
        let mut map = serde_json::Map::new();
        for (k, v) in &entries {
            map.insert(k.clone(), (*v).into());
        }
        let json = serde_json::Value::Object(map.clone()).to_string();
        let root = Path::Root;
        let mut seen = Vec::new();
        args::object(&mut Reader::new(&json), &root, |r, k| {
            seen.push((k.to_owned(), i32::read(r, &root.field(k))?));
            Ok(())
        }).unwrap();
        let expected: Vec<(String, i32)> = map.iter().map(|(k, v)| (k.clone(), v.as_i64().unwrap() as i32)).collect();
        prop_assert_eq!(seen, expected);
    }

    #[test]
    fn integer_text_agrees_with_the_json_decoder(v in any::<i64>(), wide in any::<i128>()) {
        let root = Path::Root;
        let p = root.field("n");
        for text in [v.to_string(), wide.to_string()] {
            prop_assert_eq!(args::text::<i64>(&text, &p), i64::read(&mut Reader::new(&text.clone()), &p));
            prop_assert_eq!(args::text::<i32>(&text, &p), i32::read(&mut Reader::new(&text.clone()), &p));
            prop_assert_eq!(args::text::<u8>(&text, &p), u8::read(&mut Reader::new(&text.clone()), &p));
            prop_assert_eq!(args::text::<u64>(&text, &p), u64::read(&mut Reader::new(&text.clone()), &p));
        }
    }

    #[test]
    fn float_text_agrees_with_the_json_decoder(v in any::<f64>()) {
        let root = Path::Root;
        let p = root.field("x");
        // Rust writes non-finite values as `NaN`/`inf`, which neither decoder accepts.
        let text = format!("{v:e}");
        let json = if v.is_finite() { text.clone() } else { "\"x\"".into() };
        prop_assert_eq!(args::text::<f64>(&text, &p), f64::read(&mut Reader::new(&json.clone()), &p));
        prop_assert_eq!(args::text::<f32>(&text, &p), f32::read(&mut Reader::new(&json), &p));
    }

    #[test]
    fn uri_variables_round_trip_through_percent_encoding(
        a in any::<String>(),
        b in any::<String>(),
    ) {
        let encode = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
        let uri = format!("docs://{}/{}.md", encode(&a), encode(&b));
        let values = uri_template::capture("docs://{a}/{b}.md", &uri).unwrap();
        prop_assert_eq!(values, vec![a, b]);
    }

    #[test]
    fn uri_matching_never_panics(template in "[a-z:/{}.?#%-]{0,16}", uri in any::<String>()) {
        if let Some(values) = uri_template::capture(&template, &uri) {
            prop_assert_eq!(values.len(), uri_template::variables(&template).len());
        }
    }
}
