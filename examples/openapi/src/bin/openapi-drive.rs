//! Calls every tool of the example's servers, over stdio and over Streamable HTTP, with the
//! generated typed clients, the servers forwarding to the APIs at the URLs given (mocks of
//! them in scripts/openapi.sh: Stoplight Prism). Each typed result is printed; a call that
//! fails fails the run. Then a request the API would refuse (a pet whose name is a number)
//! is sent: the server must refuse it itself, naming the argument, without calling the API.
//!
//! usage: openapi-drive --petstore URL --train-travel URL [--server PATH]
//!
//! Exit status 0 when every call returned its typed result and the refusal came from the
//! server; 1 otherwise.

use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

use openapi_example::petstore::{
    AddPetArgs, DeletePetArgs, FindPetByIdArgs, FindPetsArgs, PetstoreClient,
};
use openapi_example::train_travel::{
    CreateBookingArgs, CreateBookingPaymentArgs, DeleteBookingArgs, GetBookingArgs, GetTripsArgs,
    TrainTravelClient,
};
use serde_json::json;
use toolidl_runtime::client::{ClientError, Command, HttpTransport, StdioTransport, Transport};

const USAGE: &str = "usage: openapi-drive --petstore URL --train-travel URL [--server PATH]";

#[tokio::main]
async fn main() {
    let mut petstore = None;
    let mut train = None;
    let mut server = std::env::current_exe()
        .map(|exe| exe.with_file_name("openapi-example"))
        .unwrap_or_else(|_| PathBuf::from("openapi-example"));
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--petstore", Some(url)) => petstore = Some(url),
            ("--train-travel", Some(url)) => train = Some(url),
            ("--server", Some(path)) => server = PathBuf::from(path),
            _ => fail(USAGE),
        }
    }
    let (Some(petstore), Some(train)) = (petstore, train) else {
        fail(USAGE)
    };
    let mut failures = 0;
    // The HTTP servers started, ended when dropped (`kill_on_drop`).
    let mut children = Vec::new();
    for over in [Over::Stdio, Over::Http] {
        let transport = start(&server, "petstore", &petstore, over, &mut children).await;
        failures += drive_petstore(transport, over).await;
        let transport = start(&server, "train-travel", &train, over, &mut children).await;
        failures += drive_train(transport, over).await;
    }
    drop(children);
    if failures > 0 {
        fail(&format!("{failures} calls failed"));
    }
    println!("openapi-drive: every operation returned its typed result, over stdio and HTTP");
}

#[derive(Clone, Copy, Debug)]
enum Over {
    Stdio,
    Http,
}

fn fail(problem: &str) -> ! {
    eprintln!("openapi-drive: {problem}");
    std::process::exit(1);
}

/// The server of `api` forwarding to `base`, and a transport to it.
async fn start(
    server: &PathBuf,
    api: &str,
    base: &str,
    over: Over,
    children: &mut Vec<tokio::process::Child>,
) -> Box<dyn Transport> {
    let mut command = Command::new(server);
    command
        .args(["--api", api, "--base-url", base])
        // Prism checks that a credential is sent, not which.
        .env("TRAIN_TRAVEL_OAUTH2_TOKEN", "a-token-for-the-mock")
        .kill_on_drop(true);
    match over {
        Over::Stdio => match StdioTransport::spawn(command).await {
            Ok(t) => Box::new(t),
            Err(e) => fail(&format!("{api} over stdio: {e}")),
        },
        Over::Http => {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .unwrap_or_else(|e| fail(&format!("no free port: {e}")));
            command.args(["--http", &format!("127.0.0.1:{port}")]);
            let child = command
                .spawn()
                .unwrap_or_else(|e| fail(&format!("cannot start {}: {e}", server.display())));
            children.push(child);
            let url = format!("http://127.0.0.1:{port}/mcp");
            for _ in 0..100 {
                if let Ok(t) = HttpTransport::connect(&url).await {
                    return Box::new(t);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            fail(&format!("{api} over HTTP: nothing answers at {url}"))
        }
    }
}

fn report<T: std::fmt::Debug>(
    api: &str,
    over: Over,
    tool: &str,
    result: Result<T, ClientError>,
) -> u32 {
    match result {
        Ok(value) => {
            let text = format!("{value:?}");
            let text: String = text.chars().take(160).collect();
            println!("{api} {over:?} {tool}: {text}");
            0
        }
        Err(e) => {
            eprintln!("{api} {over:?} {tool}: FAILED: {e}");
            1
        }
    }
}

async fn drive_petstore(transport: Box<dyn Transport>, over: Over) -> u32 {
    let api = "petstore";
    let client = PetstoreClient::from_arc(transport.into());
    let mut failures = 0;
    let pets = client
        .find_pets(FindPetsArgs {
            tags: Some(vec!["dog".into()]),
            limit: Some(2),
        })
        .await;
    failures += report(api, over, "find_pets", pets);
    let added = client
        .add_pet(AddPetArgs {
            name: "Rex".into(),
            tag: Some("dog".into()),
        })
        .await;
    let id = added.as_ref().map(|p| p.id).unwrap_or(1);
    failures += report(api, over, "add_pet", added);
    let found = client.find_pet_by_id(FindPetByIdArgs { id }).await;
    failures += report(api, over, "find_pet_by_id", found);
    let deleted = client.delete_pet(DeletePetArgs { id }).await;
    failures += report(api, over, "delete_pet", deleted);

    // What the API refuses (`name` must be a string): refused here, before any request.
    let refused = client
        .transport()
        .request(
            "tools/call",
            json!({"name": "add_pet", "arguments": {"name": 5, "tag": "dog"}}),
        )
        .await;
    let text = refused
        .as_ref()
        .ok()
        .and_then(|r| r.pointer("/content/0/text"))
        .and_then(|t| t.as_str())
        .unwrap_or_default()
        .to_owned();
    let is_error = refused
        .as_ref()
        .ok()
        .and_then(|r| r.get("isError"))
        .and_then(|e| e.as_bool())
        == Some(true);
    if is_error && text.starts_with("Argument 'name' is not valid.") {
        println!("{api} {over:?} add_pet {{\"name\": 5}}: refused by the server: {text}");
    } else {
        eprintln!(
            "{api} {over:?} add_pet {{\"name\": 5}}: FAILED: not refused with the argument's path: {refused:?}"
        );
        failures += 1;
    }
    failures
}

async fn drive_train(transport: Box<dyn Transport>, over: Over) -> u32 {
    let api = "train-travel";
    let client = TrainTravelClient::from_arc(transport.into());
    let mut failures = 0;
    failures += report(api, over, "get_stations", client.get_stations().await);
    let trips = client
        .get_trips(GetTripsArgs {
            origin: "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e".into(),
            destination: "b2e783e1-c824-4d63-b37a-d8d698862f1d".into(),
            date: "2024-02-01T09:00:00Z".into(),
            bicycles: false,
            dogs: true,
        })
        .await;
    failures += report(api, over, "get_trips", trips);
    failures += report(api, over, "get_bookings", client.get_bookings().await);
    let booking = client
        .create_booking(CreateBookingArgs {
            trip_id: Some("efdbb9d1-02c2-4bc3-afb7-6788d8782b1e".into()),
            passenger_name: Some("Ann Example".into()),
            has_bicycle: Some(false),
            has_dog: Some(true),
        })
        .await;
    failures += report(api, over, "create_booking", booking);
    let id = "1725ff48-ab45-4bb5-9d02-88745177dedb".to_owned();
    let got = client
        .get_booking(GetBookingArgs {
            booking_id: id.clone(),
        })
        .await;
    failures += report(api, over, "get_booking", got);
    let paid = client
        .create_booking_payment(CreateBookingPaymentArgs {
            booking_id: id.clone(),
            amount: Some(49.99),
            currency: None,
            source: None,
        })
        .await;
    failures += report(api, over, "create_booking_payment", paid);
    let deleted = client
        .delete_booking(DeleteBookingArgs { booking_id: id })
        .await;
    failures += report(api, over, "delete_booking", deleted);
    failures
}
