//! A generated input serializes as its tool's `inputSchema` names the arguments, so a
//! client (`toolidl_runtime::testing::Client::call`) sends exactly what the decoder reads:
//! decoding what an input serializes to gives the same input back, an absent optional
//! parameter stays absent (never `null`, which `x?: T` refuses), and `x?: T?`'s `null`
//! stays `null`.

use serde_json::{Value, json};
use toolidl_generated_tests::golden::composite_defaults::DrawArgs;
use toolidl_generated_tests::golden::optional::ReadArgs;
use toolidl_runtime::codegen::{Arguments, Decode, RawValue, ToolInput};

fn decode<T: Decode>(args: &Value) -> T {
    let raw = RawValue::from_string(args.to_string()).unwrap();
    Arguments::new(&raw)
        .decode::<T>()
        .unwrap_or_else(|e| panic!("{args}: {e}"))
}

#[test]
fn optional_parameters_serialize_as_they_were_sent() {
    assert_eq!(<ReadArgs as ToolInput>::TOOL, "read");
    for args in [
        json!({"path": "a"}),
        json!({"path": "a", "head": 3, "tail": null}),
        json!({"path": "a", "tail": -4, "ratio": 0.5, "grep": "x"}),
        json!({"path": "a", "window": {"label": null}}),
        json!({"path": "a", "window": {"head": 1, "tail": null, "label": "l", "tags": ["t"], "order": "desc"}}),
        json!({"path": "a", "pick": ["6f1c0f5e-2f2a-4c3b-9d8e-0a1b2c3d4e5f"]}),
    ] {
        let input: ReadArgs = decode(&args);
        let sent = serde_json::to_value(&input).unwrap();
        assert_eq!(sent, args, "what the input serializes to");
        assert_eq!(decode::<ReadArgs>(&sent), input, "{sent}");
    }
}

#[test]
fn defaults_are_sent_explicitly_and_mean_the_same() {
    let input: DrawArgs = decode(&json!({"shape": "s"}));
    let sent = serde_json::to_value(&input).unwrap();
    assert_eq!(sent["shape"], "s");
    assert!(
        sent.as_object().is_some_and(|o| o.len() > 1),
        "every parameter with a default is sent: {sent}"
    );
    assert_eq!(decode::<DrawArgs>(&sent), input, "{sent}");
}
