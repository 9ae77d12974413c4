//! What the benchmark binaries share: the code generated from `tools/orders.tool` (whose
//! records and enum derive serde's `Deserialize`, added by `build.rs`: generated types have
//! none), the argument object the `decode`
//! benchmark decodes, and the synthetic `.tool` file the `generate` benchmark compiles.

use serde_json::{Value, json};
use toolidl_runtime::codegen::Service;
use toolidl_runtime::{RequestContext, ToolError};

// The package `orders`: `LineItem`, `Order`, `Status`, `SubmitOrderArgs`, the trait
// `Orders` and `OrdersServer<T>`.
toolidl_runtime::include_tools!();

pub use orders::{LineItem, Order, Status, SubmitOrderArgs};

/// How many lines the benchmark's order has.
pub const LINES: usize = 50;

/// The arguments of `submit_order` as serde reads them: the fields of the generated
/// [`SubmitOrderArgs`] (which has a `Decode` impl but no `Deserialize`: input
/// structs derive none), with the tool's defaults. Converting it into
/// `SubmitOrderArgs` is a move of three fields.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SerdeSubmitOrderArgs {
    pub order: Order,
    #[serde(default = "default_priority")]
    pub priority: u8,
    #[serde(default)]
    pub dry_run: bool,
}

fn default_priority() -> u8 {
    3
}

impl From<SerdeSubmitOrderArgs> for SubmitOrderArgs {
    fn from(a: SerdeSubmitOrderArgs) -> Self {
        SubmitOrderArgs {
            order: a.order,
            priority: a.priority,
            dry_run: a.dry_run,
        }
    }
}

/// An implementation that does nothing: it exists so that `OrdersServer<T>::tools()`, the
/// listing a server publishes, can be read.
struct NoOrders;

impl orders::Orders for NoOrders {
    async fn submit_order(
        &self,
        _ctx: RequestContext,
        SubmitOrderArgs { order, .. }: SubmitOrderArgs,
    ) -> Result<String, ToolError> {
        Ok(order.order_id)
    }
}

/// The `inputSchema` of `submit_order` exactly as the generated server publishes it in
/// `tools/list`.
pub fn submit_order_input_schema() -> Value {
    let server = orders::OrdersServer::new(NoOrders);
    let tool = server
        .tools()
        .iter()
        .find(|t| t.name == "submit_order")
        .expect("the server lists submit_order");
    let mut entry: Value = serde_json::from_str(&tool.json).expect("a listing is JSON");
    entry["inputSchema"].take()
}

/// A realistic valid argument object of `submit_order`: an order of [`LINES`] lines whose
/// strings follow their patterns, numbers are in range, statuses vary and half the lines have
/// a `shipBy` date (the others `null`).
pub fn sample_arguments() -> Value {
    const PRODUCTS: [&str; 8] = [
        "Stainless steel water bottle, 750 ml",
        "Organic cotton T-shirt, navy, size M",
        "USB-C charging cable, braided, 2 m",
        "Ceramic pour-over coffee dripper",
        "Wireless ergonomic mouse",
        "Notebook, dotted, A5, 192 pages",
        "Bamboo cutting board with juice groove",
        "LED desk lamp with dimmer",
    ];
    const STATUSES: [&str; 6] = [
        "pending",
        "paid",
        "packed",
        "shipped",
        "delivered",
        "cancelled",
    ];
    const ORIGINS: [&str; 7] = ["BE", "DE", "FR", "NL", "PT", "SE", "US"];
    let lines: Vec<Value> = (0..LINES)
        .map(|i| {
            let letters = [b'A' + (i % 26) as u8, b'B' + (i % 25) as u8, b'K'];
            json!({
                "sku": format!("{}-{:04}-X{}", String::from_utf8_lossy(&letters), 1000 + i * 37, i % 10),
                "description": PRODUCTS[i % PRODUCTS.len()],
                "quantity": 1 + (i * 7) % 40,
                "unitPriceCents": 199 + (i * 1_337) % 50_000,
                "discountPct": (i * 5) % 30,
                "status": STATUSES[i % STATUSES.len()],
                "shipBy": if i % 2 == 0 { json!(format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i % 28)) } else { Value::Null },
                "origin": ORIGINS[i % ORIGINS.len()],
                "gift": i % 9 == 0,
            })
        })
        .collect();
    json!({
        "order": {
            "orderId": "ORD-20260412",
            "customerId": "C004217",
            "currency": "EUR",
            "createdOn": "2026-04-12",
            "express": true,
            "lines": lines,
            "note": "Leave the parcel with the neighbour at number 12 if nobody is home.",
        },
        "priority": 2,
    })
}

/// [`sample_arguments`] with one pattern violation deep in the list: the SKU of line 47 has
/// three digits instead of four. Every other value is unchanged.
pub fn near_valid_arguments() -> Value {
    let mut args = sample_arguments();
    args["order"]["lines"][LINES - 3]["sku"] = json!("QRK-123-X7");
    args
}

/// A synthetic `.tool` file (package `synth`) with `tools` tools over 10 services, using 20
/// enums and 40 records (16 of them held by the others): strings with `@length`, `@pattern`, `@email`, ranged integers and
/// floats, enums, records nested in records, lists, sets, maps, nullable types, defaults of
/// every kind, formats (`uuid`, `date`, `datetime`), doc comments and annotations.
pub fn synthetic_tool_file(tools: usize) -> String {
    use std::fmt::Write;

    const ENUMS: usize = 20;
    const RECORDS: usize = 40;
    const LEAVES: usize = 16;
    const SERVICES: usize = 10;
    const MEMBERS: [&str; 8] = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    ];
    let mut out = String::from(
        "// Generated by toolidl-bench: a large file for the generate benchmark.\npackage synth;\n\n",
    );
    for e in 0..ENUMS {
        let members = &MEMBERS[..3 + e % 6];
        let _ = writeln!(
            out,
            "/// Enum number {e}.\nenum Kind{e:02} {{ {} }}\n",
            members.join(", ")
        );
    }
    let enum_of = |n: usize| (format!("Kind{:02}", n % ENUMS), MEMBERS[0]);
    for r in 0..RECORDS {
        let _ = writeln!(out, "/// Record number {r}.");
        if r % 3 == 0 {
            out.push_str("@rename_all(\"camelCase\")\n");
        }
        let _ = writeln!(out, "record Rec{r:02} {{");
        let (kind, first) = enum_of(r * 3);
        let _ = writeln!(out, "    /// A short, URL-safe name.");
        let _ = writeln!(
            out,
            "    @pattern(\"^[a-z0-9-]{{1,40}}$\") slug_name: string,"
        );
        let _ = writeln!(out, "    @range(0, {}) item_count: u32,", 1000 + r);
        let _ = writeln!(out, "    kind: {kind},");
        let _ = writeln!(out, "    mode: {kind} = {first},");
        let _ = writeln!(out, "    @length(max: 20) labels: list<string>,");
        let _ = writeln!(out, "    valid_from: date?,");
        let _ = writeln!(out, "    note: string? = null,");
        let _ = writeln!(out, "    @range(1, 10) level: u8 = 5,");
        let _ = writeln!(out, "    @range(0.0, 1.0) ratio: f64,");
        // The first records are leaves; the others hold leaves (two levels, as real APIs do).
        if r >= LEAVES {
            let _ = writeln!(out, "    parent: Rec{:02}?,", (r * 7) % LEAVES);
            let _ = writeln!(
                out,
                "    @length(max: 100) children: list<Rec{:02}>,",
                (r * 5) % LEAVES
            );
        }
        out.push_str("}\n\n");
    }
    let per_service = tools.div_ceil(SERVICES).max(1);
    for s in 0..SERVICES {
        let range = s * per_service..((s + 1) * per_service).min(tools);
        if range.is_empty() {
            break;
        }
        let _ = writeln!(out, "/// Service number {s}.\nservice Area{s:02}Tools {{");
        for i in range {
            let rec = format!("Rec{:02}", (i * 11) % RECORDS);
            let (kind, first) = enum_of(i * 13);
            let _ = writeln!(
                out,
                "    /// Tool number {i}: does operation {i} of area {s}."
            );
            match i % 4 {
                0 => out.push_str("    @read_only @idempotent\n"),
                1 => {
                    let _ = writeln!(out, "    @title(\"Operation {i}\")");
                }
                2 => out.push_str("    @destructive(false) @open_world\n"),
                _ => {}
            }
            let _ = writeln!(out, "    tool op_{i:04}(");
            // Distinct parameter kinds: a step coprime with 16 visits 16 different ones.
            let count = 1 + (i * 5) % 7;
            for j in 0..count {
                let param = match (i + j * 5) % 16 {
                    0 => "@length(1, 200) name: string".to_owned(),
                    1 => "@pattern(\"^[A-Z]{2,4}-[0-9]+$\") code: string".to_owned(),
                    2 => format!("@range(1, {}) limit: u32 = 50", 100 + i),
                    3 => format!("kind: {kind}"),
                    4 => format!("units: {kind} = {first}"),
                    5 => format!("item: {rec}"),
                    6 => format!("@length(min: 1) items: list<{rec}>"),
                    7 => "since: date? = null".to_owned(),
                    8 => "tags: set<string>".to_owned(),
                    9 => "@email contact: string".to_owned(),
                    10 => "scores: map<string, i32>".to_owned(),
                    11 => "verbose: bool = false".to_owned(),
                    12 => "id: uuid".to_owned(),
                    13 => "@range(-1.0, 1.0) weight: f64".to_owned(),
                    14 => format!("filter: {rec}? = null"),
                    _ => "at: datetime".to_owned(),
                };
                let _ = writeln!(out, "        {param},");
            }
            let returns = match i % 6 {
                0 => " -> string".to_owned(),
                1 => format!(" -> {rec}"),
                2 => format!(" -> list<{rec}>"),
                3 => format!(" -> {kind}"),
                4 => " -> u64".to_owned(),
                _ => String::new(),
            };
            let _ = writeln!(out, "    ){returns};\n");
        }
        out.push_str("}\n\n");
    }
    out
}

/// A `.tool` file (package `chain`) of `records` records in a chain, each holding the next
/// one in a required field (the last holds none), with a tool that takes the first: the
/// `resolve` benchmark's deep file. Each record has a patterned string, a ranged integer with
/// a default and a nullable list of the next record.
pub fn record_chain_file(records: usize) -> String {
    use std::fmt::Write;

    let mut out =
        String::from("// Generated by toolidl-bench: a chain of records.\npackage chain;\n\n");
    for r in 0..records {
        let _ = writeln!(out, "/// Record number {r}.\nrecord R{r} {{");
        let _ = writeln!(out, "    @pattern(\"^[a-z]+$\") name: string,");
        let _ = writeln!(out, "    @range(1, 10) level: u8 = 5,");
        if r + 1 < records {
            let _ = writeln!(out, "    next: R{},", r + 1);
            let _ = writeln!(out, "    others: list<R{}>?,", r + 1);
        }
        out.push_str("}\n\n");
    }
    out.push_str("service Chain {\n    /// Takes the head of the chain.\n    tool head(first: R0) -> string;\n}\n");
    out
}

/// A `.tool` file (package `wide`) with one service of `tools` tools, each taking a record,
/// a ranged integer with a default and an enum, and returning the record: the `resolve`
/// benchmark's wide file.
pub fn wide_service_file(tools: usize) -> String {
    use std::fmt::Write;

    let mut out = String::from(
        "// Generated by toolidl-bench: one service of many tools.\npackage wide;\n\nenum Mode { fast, slow }\n\nrecord Item {\n    @length(1, 40) name: string,\n    count: u32 = 0,\n}\n\nservice Wide {\n",
    );
    for i in 0..tools {
        let _ = writeln!(out, "    /// Tool number {i}.");
        if i % 2 == 0 {
            out.push_str("    @read_only\n");
        }
        let _ = writeln!(
            out,
            "    tool op_{i}(item: Item, @range(1, 100) limit: u32 = 10, mode: Mode = fast) -> Item;"
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolidl::source::{MemoryLoader, SourceId};
    use toolidl_runtime::codegen::{Arguments, RawValue};

    #[test]
    fn the_sample_decodes_and_the_near_valid_one_does_not() {
        let text = sample_arguments().to_string();
        let raw: &RawValue = serde_json::from_str(&text).unwrap();
        let args = Arguments::new(raw).decode::<SubmitOrderArgs>().unwrap();
        assert_eq!(args.order.lines.len(), LINES);
        let serde: SerdeSubmitOrderArgs = serde_json::from_str(&text).unwrap();
        assert_eq!(SubmitOrderArgs::from(serde), args);

        let text = near_valid_arguments().to_string();
        let raw: &RawValue = serde_json::from_str(&text).unwrap();
        assert!(Arguments::new(raw).decode::<SubmitOrderArgs>().is_err());
    }

    #[test]
    fn a_small_synthetic_file_compiles_checks_and_generates() {
        let text = synthetic_tool_file(40);
        let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("synth.tool"), text);
        assert!(!output.has_errors(), "{}", output.render());
        let model = output.model.unwrap();
        let problems = toolidl_codegen::rust::check(&model, &output.locations);
        assert!(problems.is_empty(), "{problems:?}");
        let files = toolidl_codegen::rust::generate(&[&model], &Default::default()).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].code.matches("pub struct Op").count(), 40);
    }

    #[test]
    fn the_resolve_benchmark_files_resolve() {
        for text in [record_chain_file(30), wide_service_file(30)] {
            let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("f.tool"), text);
            assert!(!output.has_errors(), "{}", output.render());
        }
    }
}
