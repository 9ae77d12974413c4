//! stdin and stdout, as `lsp_server::Connection::stdio` would connect them, with the frames
//! read by [`framing`](super::framing) so that a bad frame is answered instead of ending the
//! server.

use std::io;
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Sender, bounded};
use lsp_server::{Connection, Message};

use super::framing::{Frame, FrameReader, write_answer};

/// The connection on stdin and stdout, and the writer thread to join once it is dropped (the
/// reader ends on `exit` or at the end of stdin; nothing waits for it).
pub fn connect() -> io::Result<(Connection, JoinHandle<io::Result<()>>)> {
    // Rendezvous channels, as lsp-server's: the reader reads no further ahead than the
    // server has taken.
    let (writer_sender, writer_receiver) = bounded::<Message>(0);
    let writer = thread::Builder::new()
        .name("toolidl-lsp-writer".into())
        .spawn(move || {
            for message in writer_receiver {
                // One lock per frame: the reader's answers never land inside a message.
                message.write(&mut io::stdout().lock())?;
            }
            Ok(())
        })?;
    let (reader_sender, reader_receiver) = bounded::<Message>(0);
    thread::Builder::new()
        .name("toolidl-lsp-reader".into())
        .spawn(move || read(io::stdin().lock(), &reader_sender))?;
    let connection = Connection {
        sender: writer_sender,
        receiver: reader_receiver,
    };
    Ok((connection, writer))
}

/// Hands the server every message of `input`, answers every frame that is none, and stops
/// after `exit`, at the end of the input, or when the server is gone.
fn read(input: impl io::Read, server: &Sender<Message>) {
    let mut frames = FrameReader::new(input);
    loop {
        match frames.read() {
            Ok(None) => return,
            Ok(Some(Frame::Message(message))) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if server.send(message).is_err() || exit {
                    return;
                }
            }
            Ok(Some(Frame::Refused { answer, reason })) => {
                eprintln!("toolidl lsp: refused a message: {reason}");
                let written = answer.map(|a| write_answer(&mut io::stdout().lock(), &a));
                if let Some(Err(error)) = written {
                    eprintln!("toolidl lsp: cannot write to stdout: {error}");
                    return;
                }
            }
            Err(error) => {
                eprintln!("toolidl lsp: cannot read stdin: {error}");
                return;
            }
        }
    }
}
