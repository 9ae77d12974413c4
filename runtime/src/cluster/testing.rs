//! A real `redis-server` for the tests (Debian's package; `bash scripts/redis.sh install`),
//! on a free loopback port with its own folder, stopped when dropped.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) struct RedisServer {
    bin: String,
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
}

fn binary() -> Option<String> {
    if let Ok(b) = std::env::var("REDIS_SERVER") {
        return Some(b);
    }
    let found = Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok();
    if found {
        return Some("redis-server".into());
    }
    std::path::Path::new("/usr/bin/redis-server")
        .exists()
        .then(|| "/usr/bin/redis-server".into())
}

impl RedisServer {
    /// A fresh server; `None` (the test is skipped, loudly) when no `redis-server` is
    /// installed, except under CI (`CI` set), where that fails the test.
    pub fn start() -> Option<RedisServer> {
        let Some(bin) = binary() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "no redis-server (bash scripts/redis.sh install)"
            );
            eprintln!("SKIPPED: no redis-server (bash scripts/redis.sh install)");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let mut server = RedisServer {
            bin,
            child: None,
            port,
            dir: tempfile::tempdir().unwrap(),
        };
        server.spawn();
        Some(server)
    }

    /// Kills the server (its data goes with it).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Freezes the server (SIGSTOP): connections stay open, nothing is answered.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a paused server go on (SIGCONT).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        if let Some(child) = &self.child {
            let sent = Command::new("kill")
                .arg(signal)
                .arg(child.id().to_string())
                .status()
                .unwrap();
            assert!(sent.success(), "kill {signal}");
        }
    }

    /// Starts it again, empty, on the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn();
    }

    fn spawn(&mut self) {
        let child = Command::new(&self.bin)
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Runs one command on the server directly (bypassing the code under test).
    pub fn command(&self, args: &[&str]) -> ::redis::Value {
        let client = ::redis::Client::open(self.url()).unwrap();
        let mut conn = client.get_connection().unwrap();
        let mut cmd = ::redis::cmd(args[0]);
        for a in &args[1..] {
            cmd.arg(*a);
        }
        cmd.query(&mut conn).unwrap()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}
