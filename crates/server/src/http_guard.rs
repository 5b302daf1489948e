//! A guard in front of actix's HTTP/1 parser, on every accepted connection.
//!
//! actix-http cannot be configured to refuse a request that carries both
//! `Content-Length` and `Transfer-Encoding` (it lets `Transfer-Encoding`
//! win and keeps the connection open, so a request smuggled in the body is
//! answered), and the errors its parser raises are answered by the parser
//! itself with an empty body (bad version, NUL in a header, too many
//! headers, a raw non-ASCII target, a target of 64 KiB or more).
//!
//! [`GuardedStream`] wraps the TCP stream and reads each request head
//! *before* actix does, with the same parser (`httparse`, 96 headers) and the
//! same header rules. A head actix would accept is passed on unchanged, and
//! its body is passed on by its framing (`Content-Length` bytes, or chunks up
//! to the last one and its trailers), so the next head is found where actix
//! will look for it. A head that must be refused is replaced by a short
//! synthetic request for [`REJECT_PATH`]`/<code>` with `Connection: close`,
//! and nothing after it reaches actix: the app answers it like any other
//! request (JSON `{"error": …}`, the security headers, the log line and the
//! metrics, in order after the answers to the requests before it), and the
//! connection is closed.
//!
//! The synthetic request carries a [`MARK_HEADER`] whose value is a random
//! token drawn once per process, which never leaves it; the route answers
//! only requests that carry it. A client's request for the same path cannot
//! (its head is read by this guard, which writes no token into it, and the
//! token cannot be guessed): it matches no route and gets the JSON 404 of
//! any unknown path. Refused:
//!
//! * `Content-Length` together with `Transfer-Encoding` (RFC 9112 §6.3), in
//!   any HTTP version: 400;
//! * `Transfer-Encoding` in an HTTP/1.0 request, which actix frames by
//!   `Content-Length` alone (RFC 9112 §6.1: the framing is faulty): 400;
//! * a head the parser rejects (bad method, target, version, header name or
//!   value, a repeated or malformed `Content-Length` or `Transfer-Encoding`):
//!   400; more than 96 headers or a head over 128 KiB: 431;
//! * a request target longer than `--max-uri-bytes`: 414, decided from the
//!   request line alone (no need to buffer the rest);
//! * a head not complete within `--request-head-timeout-ms` (counted from
//!   the connection's start for its first request, from the first byte of
//!   the head for later ones): 408. A kept-alive connection on which no
//!   byte of a next request arrives is closed by actix's keep-alive timer,
//!   without an answer (there is no request to answer).
//!
//! Upgrades and `CONNECT` (a body that lasts to the end of the stream for
//! actix) and a body whose chunk framing does not parse are passed on
//! unchanged from there on; actix then answers as it always does.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::rt::net::TcpStream;
use actix_web::{HttpRequest, HttpResponse, ResponseError, guard, web};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use crate::config::Settings;
use crate::engine::AppState;
use crate::error::ApiError;

/// The path of the synthetic request that stands for a refused head; the
/// last segment is the [`Refusal`] code.
pub const REJECT_PATH: &str = "/.menagerie/refused";

/// The most headers a head may have (actix-http's limit).
const MAX_HEADERS: usize = 96;
/// The largest head (actix-http's read buffer limit).
const MAX_HEAD_BYTES: usize = 128 * 1024;

/// Why a head was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Both `Content-Length` and `Transfer-Encoding`.
    Smuggling,
    /// `Transfer-Encoding` in an HTTP/1.0 request.
    Http10TransferEncoding,
    /// The head does not parse or breaks a header rule.
    Malformed,
    /// More than 96 headers, or a head over 128 KiB.
    HeadTooLarge,
    /// The request target is longer than `--max-uri-bytes`.
    TargetTooLong,
    /// The head did not arrive within `--request-head-timeout-ms`.
    Timeout,
}

impl Refusal {
    const ALL: [Refusal; 6] = [
        Refusal::Smuggling,
        Refusal::Http10TransferEncoding,
        Refusal::Malformed,
        Refusal::HeadTooLarge,
        Refusal::TargetTooLong,
        Refusal::Timeout,
    ];

    fn code(self) -> &'static str {
        match self {
            Refusal::Smuggling => "smuggling",
            Refusal::Http10TransferEncoding => "http10-transfer-encoding",
            Refusal::Malformed => "malformed",
            Refusal::HeadTooLarge => "head-too-large",
            Refusal::TargetTooLong => "target-too-long",
            Refusal::Timeout => "timeout",
        }
    }

    fn error(self, settings: &Settings) -> ApiError {
        match self {
            Refusal::Smuggling => ApiError::BadRequest(
                "a request may not carry both Content-Length and Transfer-Encoding",
            ),
            Refusal::Http10TransferEncoding => {
                ApiError::BadRequest("an HTTP/1.0 request may not carry Transfer-Encoding")
            }
            Refusal::Malformed => ApiError::BadRequest("the request head is malformed"),
            Refusal::HeadTooLarge => ApiError::HeadersTooLarge {
                max: MAX_HEAD_BYTES,
            },
            Refusal::TargetTooLong => ApiError::UriTooLong {
                max: settings.max_uri_bytes,
            },
            Refusal::Timeout => ApiError::HeadTimeout {
                max_ms: settings.request_head_timeout_ms,
            },
        }
    }
}

/// The header that marks a synthetic request as the guard's.
pub const MARK_HEADER: &str = "x-menagerie-refusal";

/// This process's token for [`MARK_HEADER`]: 128 random bits, as hex.
static MARK: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{:032x}", rand::random::<u128>()));

/// Whether a request carries this process's mark (compared in constant
/// time: the answer gives away nothing about the token).
fn is_marked(ctx: &guard::GuardContext<'_>) -> bool {
    let Some(value) = ctx.head().headers().get(MARK_HEADER) else {
        return false;
    };
    let (got, want) = (value.as_bytes(), MARK.as_bytes());
    got.len() == want.len() && got.iter().zip(want).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// Registers the route that answers refused heads: only the guard's own
/// synthetic requests match it (see the [module documentation](self)).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(format!("{REJECT_PATH}/{{code}}"))
            .guard(guard::fn_guard(is_marked))
            .to(refused),
    );
}

/// Answers a refused head: its error as JSON, and the connection closes.
async fn refused(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let code = req.match_info().get("code").unwrap_or("");
    let refusal = Refusal::ALL
        .into_iter()
        .find(|r| r.code() == code)
        .unwrap_or(Refusal::Malformed);
    let mut res = refusal.error(&state.settings).error_response();
    res.head_mut()
        .set_connection_type(actix_http::ConnectionType::Close);
    res
}

/// A listening socket on `addr`, made as actix-web's `HttpServer::bind`
/// makes it: `SO_REUSEADDR` and a backlog of 1024 (the standard library's
/// `TcpListener::bind` gives 128).
pub fn listen(addr: SocketAddr) -> io::Result<std::net::TcpListener> {
    use socket2::{Domain, Protocol as IpProtocol, Socket, Type};
    let socket = Socket::new(
        Domain::for_address(addr),
        Type::STREAM,
        Some(IpProtocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    Ok(socket.into())
}

/// Where the reader is in the byte stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// Waiting for a request head.
    Head,
    /// Inside a body of this many more bytes.
    Body(u64),
    /// Inside a chunked body.
    Chunk(ChunkState),
    /// Everything is passed on unchanged from here on.
    Through,
    /// A head was refused: nothing more is read.
    Refused,
}

/// Where a chunked body reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkState {
    /// At a chunk-size line.
    Size,
    /// Inside a chunk's data, this many bytes left.
    Data(u64),
    /// At the line end after a chunk's data.
    DataEnd,
    /// At a trailer line (or the empty line that ends the body).
    Trailer,
}

/// A TCP stream whose request heads are checked before actix parses them
/// (see the [module documentation](self)).
///
/// Bytes read while nothing is pending are read straight into actix's
/// buffer and judged there: what may go on stays, an incomplete head at the
/// end is moved to `pending` and taken out of the buffer. Only a head split
/// over reads goes through `pending` and `ready`.
#[derive(Debug)]
pub struct GuardedStream {
    inner: TcpStream,
    judge: Judge,
    /// Bytes read but not yet judged (an incomplete head or chunk line).
    pending: Vec<u8>,
    /// Bytes judged and not yet handed to the reader, from `ready_at` on.
    ready: Vec<u8>,
    ready_at: usize,
    /// The buffer of reads into `pending` (allocated on first use).
    scratch: Vec<u8>,
    /// The peer closed its side.
    eof: bool,
    /// How long a head may take.
    head_timeout: Duration,
    /// When the head being read must be complete: armed at the start and
    /// at the first byte of each later head, cleared when a head is whole.
    deadline: Option<Pin<Box<Sleep>>>,
}

/// The reader's position in the byte stream and what it decides.
#[derive(Debug)]
struct Judge {
    max_uri_bytes: usize,
    framing: Framing,
    /// How many bytes an incomplete head had when last parsed: the head is
    /// parsed again only once a line has ended since.
    head_seen: usize,
    /// Heads judged complete so far.
    heads: u64,
}

impl GuardedStream {
    /// Wraps an accepted connection; its first head must be whole within
    /// `head_timeout`. Call within a Tokio runtime (the timer is one).
    pub fn new(inner: TcpStream, max_uri_bytes: usize, head_timeout: Duration) -> Self {
        Self {
            inner,
            judge: Judge {
                max_uri_bytes,
                framing: Framing::Head,
                head_seen: 0,
                heads: 0,
            },
            pending: Vec::new(),
            ready: Vec::new(),
            ready_at: 0,
            scratch: Vec::new(),
            eof: false,
            head_timeout,
            deadline: Some(Box::pin(tokio::time::sleep(head_timeout))),
        }
    }

    /// After judging: a head that came whole clears the deadline; the first
    /// bytes of a next head arm it.
    fn track_deadline(&mut self, heads_before: u64) {
        if self.judge.heads > heads_before {
            self.deadline = None;
        }
        if self.deadline.is_none()
            && self.judge.framing == Framing::Head
            && !self.pending.is_empty()
        {
            self.deadline = Some(Box::pin(tokio::time::sleep(self.head_timeout)));
        }
    }

    /// Refuses a late head: what came of it is dropped, and the synthetic
    /// request for a 408 goes to actix.
    fn refuse_late_head(&mut self) {
        self.deadline = None;
        self.pending.clear();
        self.judge.framing = Framing::Refused;
        self.queue_refusal(Refusal::Timeout);
    }

    /// Queues the synthetic request that stands for a refused head.
    fn queue_refusal(&mut self, refusal: Refusal) {
        self.ready.extend_from_slice(
            format!(
                "GET {REJECT_PATH}/{} HTTP/1.1\r\nHost: localhost\r\n{MARK_HEADER}: {}\r\n\
                 Connection: close\r\n\r\n",
                refusal.code(),
                *MARK
            )
            .as_bytes(),
        );
    }
}

impl Judge {
    /// Judges `input`, the bytes not judged yet, in order: how many of its
    /// first bytes go on to actix unchanged, and the refusal that replaces
    /// everything after them, if a head was refused. Without a refusal the
    /// bytes after the first count are kept for the next read (an
    /// incomplete head or chunk line).
    fn run(&mut self, input: &[u8]) -> (usize, Option<Refusal>) {
        let mut at = 0;
        while at < input.len() {
            let rest = &input[at..];
            let step = match self.framing {
                Framing::Head => match self.head(rest) {
                    Ok(step) => step,
                    Err(refusal) => {
                        self.framing = Framing::Refused;
                        return (at, Some(refusal));
                    }
                },
                Framing::Body(left) => {
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(rest.len());
                    let left = left - n as u64;
                    self.framing = if left == 0 {
                        Framing::Head
                    } else {
                        Framing::Body(left)
                    };
                    Some(n)
                }
                Framing::Chunk(state) => self.chunk(state, rest),
                Framing::Through => Some(rest.len()),
                Framing::Refused => None,
            };
            match step {
                Some(n) => at += n,
                None => break,
            }
        }
        (at, None)
    }

    /// Judges a head at the start of `bytes`: its length once it is
    /// complete and may go on (the framing of its body set), `None` while it
    /// is incomplete.
    fn head(&mut self, bytes: &[u8]) -> Result<Option<usize>, Refusal> {
        let new_line = bytes
            .get(self.head_seen..)
            .is_some_and(|fresh| fresh.contains(&b'\n'));
        if self.head_seen > 0 && !new_line {
            return match partial_refusal(bytes, self.max_uri_bytes) {
                Some(refusal) => Err(refusal),
                None => Ok(None),
            };
        }
        // Blank lines before a head are skipped by the parser; keep them.
        let mut headers = [const { std::mem::MaybeUninit::uninit() }; MAX_HEADERS];
        let mut req = httparse::Request::new(&mut []);
        let verdict = match req.parse_with_uninit_headers(bytes, &mut headers) {
            Ok(httparse::Status::Complete(len)) => {
                check(&req, self.max_uri_bytes).map(|framing| (len, framing))
            }
            Ok(httparse::Status::Partial) => {
                if let Some(refusal) = partial_refusal(bytes, self.max_uri_bytes) {
                    Err(refusal)
                } else {
                    self.head_seen = bytes.len();
                    return Ok(None);
                }
            }
            Err(httparse::Error::TooManyHeaders) => Err(Refusal::HeadTooLarge),
            Err(_) => Err(target_refusal(bytes, self.max_uri_bytes).unwrap_or(Refusal::Malformed)),
        };
        self.head_seen = 0;
        let (len, framing) = verdict?;
        self.framing = framing;
        self.heads += 1;
        Ok(Some(len))
    }

    /// Moves through a chunked body at the start of `bytes`: how many
    /// bytes go on, `None` when a line is incomplete.
    fn chunk(&mut self, state: ChunkState, bytes: &[u8]) -> Option<usize> {
        match state {
            ChunkState::Size => {
                let Some(end) = line_end(bytes) else {
                    return self.give_up_if_long(bytes);
                };
                let text = std::str::from_utf8(&bytes[..end]).unwrap_or("");
                let digits = text
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim_matches([' ', '\t', '\r']);
                let size = (!digits.is_empty() && digits.len() <= 16)
                    .then(|| u64::from_str_radix(digits, 16).ok())
                    .flatten();
                let Some(size) = size else {
                    self.framing = Framing::Through;
                    return Some(0);
                };
                self.framing = Framing::Chunk(if size == 0 {
                    ChunkState::Trailer
                } else {
                    ChunkState::Data(size)
                });
                Some(end + 1)
            }
            ChunkState::Data(left) => {
                let n = usize::try_from(left).unwrap_or(usize::MAX).min(bytes.len());
                let left = left - n as u64;
                self.framing = Framing::Chunk(if left == 0 {
                    ChunkState::DataEnd
                } else {
                    ChunkState::Data(left)
                });
                Some(n)
            }
            ChunkState::DataEnd => {
                let Some(end) = line_end(bytes) else {
                    return self.give_up_if_long(bytes);
                };
                let ok = bytes[..end].iter().all(|b| *b == b'\r');
                self.framing = if ok {
                    Framing::Chunk(ChunkState::Size)
                } else {
                    Framing::Through
                };
                Some(end + 1)
            }
            ChunkState::Trailer => {
                let Some(end) = line_end(bytes) else {
                    return self.give_up_if_long(bytes);
                };
                if bytes[..end].iter().all(|b| *b == b'\r') {
                    self.framing = Framing::Head;
                }
                Some(end + 1)
            }
        }
    }

    /// A chunk line that never ends: stop judging, actix will refuse it.
    fn give_up_if_long(&mut self, bytes: &[u8]) -> Option<usize> {
        if bytes.len() > 4096 {
            self.framing = Framing::Through;
            Some(0)
        } else {
            None
        }
    }
}

/// Whether every `%` in `query` starts a `%XX` escape (two hexadecimal
/// digits). The query decoder would keep a lone `%` as it is.
pub fn percent_encoding_is_valid(query: &str) -> bool {
    let b = query.as_bytes();
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|c| *c == b'%') {
        let at = i + at;
        if !(b.get(at + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(at + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return false;
        }
        i = at + 3;
    }
    true
}

/// Whether the head being read is past `deadline` (registers the waker
/// otherwise).
fn head_is_late(deadline: &mut Option<Pin<Box<Sleep>>>, cx: &mut Context<'_>) -> bool {
    deadline
        .as_mut()
        .is_some_and(|d| d.as_mut().poll(cx).is_ready())
}

/// Index of the first `\n`.
fn line_end(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'\n')
}

/// The request line's target, if the line has one, from raw bytes.
fn raw_target(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .skip_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let line = &bytes[bytes.len() - start..];
    let line = &line[..line_end(line).unwrap_or(line.len())];
    let mut parts = line.splitn(3, |b| *b == b' ');
    parts.next();
    parts.next().unwrap_or(&[])
}

/// A 414 when the request line's target is already too long.
fn target_refusal(bytes: &[u8], max_uri_bytes: usize) -> Option<Refusal> {
    (raw_target(bytes).len() > max_uri_bytes).then_some(Refusal::TargetTooLong)
}

/// The refusal of a head that is not complete yet, if it can be decided.
fn partial_refusal(bytes: &[u8], max_uri_bytes: usize) -> Option<Refusal> {
    target_refusal(bytes, max_uri_bytes)
        .or_else(|| (bytes.len() >= MAX_HEAD_BYTES).then_some(Refusal::HeadTooLarge))
}

/// The rules actix-http applies to a parsed head, and the body framing it
/// will use; a refusal where it (or RFC 9112) would refuse.
fn check(req: &httparse::Request<'_, '_>, max_uri_bytes: usize) -> Result<Framing, Refusal> {
    let (Some(method), Some(path), Some(version)) = (req.method, req.path, req.version) else {
        return Err(Refusal::Malformed);
    };
    if path.len() > max_uri_bytes {
        return Err(Refusal::TargetTooLong);
    }
    let method =
        actix_web::http::Method::from_bytes(method.as_bytes()).map_err(|_| Refusal::Malformed)?;
    actix_web::http::Uri::try_from(path).map_err(|_| Refusal::Malformed)?;
    let http11 = version == 1;
    let mut length: Option<u64> = None;
    let mut chunked = false;
    let mut seen_te = false;
    let mut websocket = false;
    for h in req.headers.iter() {
        let value = || std::str::from_utf8(h.value).map(str::trim);
        if h.name.eq_ignore_ascii_case("content-length") {
            let v = value().map_err(|_| Refusal::Malformed)?;
            if length.is_some() || v.starts_with('+') {
                return Err(Refusal::Malformed);
            }
            length = Some(v.parse().map_err(|_| Refusal::Malformed)?);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            let v = value().map_err(|_| Refusal::Malformed)?;
            if seen_te {
                return Err(Refusal::Malformed);
            }
            seen_te = true;
            if v.eq_ignore_ascii_case("chunked") {
                chunked = true;
            } else if !v.eq_ignore_ascii_case("identity") {
                return Err(Refusal::Malformed);
            }
        } else if h.name.eq_ignore_ascii_case("upgrade") {
            websocket |= value().is_ok_and(|v| v.eq_ignore_ascii_case("websocket"));
        }
    }
    if seen_te && length.is_some() {
        return Err(Refusal::Smuggling);
    }
    // actix frames an HTTP/1.0 body by `Content-Length` alone, while a proxy
    // in front may honour `Transfer-Encoding`: the framing is faulty
    // (RFC 9112 §6.1) and the head is refused like any other conflict.
    if seen_te && !http11 {
        return Err(Refusal::Http10TransferEncoding);
    }
    if !http11 && method == actix_web::http::Method::POST && length.is_none() {
        return Err(Refusal::Malformed);
    }
    Ok(if chunked {
        Framing::Chunk(ChunkState::Size)
    } else if websocket || (method == actix_web::http::Method::CONNECT && length.is_none()) {
        Framing::Through
    } else {
        match length {
            Some(n) if n > 0 => Framing::Body(n),
            _ => Framing::Head,
        }
    })
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.ready_at < this.ready.len() {
                let n = (this.ready.len() - this.ready_at).min(buf.remaining());
                buf.put_slice(&this.ready[this.ready_at..this.ready_at + n]);
                this.ready_at += n;
                if this.ready_at == this.ready.len() {
                    this.ready.clear();
                    this.ready_at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof || this.judge.framing == Framing::Refused {
                return Poll::Ready(Ok(()));
            }
            if this.pending.is_empty() && buf.remaining() > 0 {
                // Straight into the reader's buffer, judged there.
                let start = buf.filled().len();
                match Pin::new(&mut this.inner).poll_read(cx, buf) {
                    Poll::Pending if head_is_late(&mut this.deadline, cx) => {
                        this.refuse_late_head();
                        continue;
                    }
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Ready(Ok(())) => {}
                }
                let read = &buf.filled()[start..];
                if read.is_empty() {
                    this.eof = true;
                    return Poll::Ready(Ok(()));
                }
                let heads = this.judge.heads;
                let (pass, refusal) = this.judge.run(read);
                if refusal.is_none() {
                    this.pending.extend_from_slice(&read[pass..]);
                }
                buf.set_filled(start + pass);
                this.track_deadline(heads);
                if let Some(refusal) = refusal {
                    this.queue_refusal(refusal);
                }
                if pass > 0 {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            if this.scratch.is_empty() {
                this.scratch = vec![0; 8192];
            }
            let mut read = ReadBuf::new(&mut this.scratch);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Pending if head_is_late(&mut this.deadline, cx) => {
                    this.refuse_late_head();
                    continue;
                }
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    if read.filled().is_empty() {
                        // The peer is done: what is left goes to actix as is.
                        this.eof = true;
                        this.ready.append(&mut this.pending);
                    } else {
                        this.pending.extend_from_slice(read.filled());
                        let heads = this.judge.heads;
                        let (pass, refusal) = this.judge.run(&this.pending);
                        this.ready.extend_from_slice(&this.pending[..pass]);
                        match refusal {
                            Some(refusal) => {
                                this.pending.clear();
                                this.queue_refusal(refusal);
                            }
                            None => {
                                this.pending.drain(..pass);
                            }
                        }
                        this.track_deadline(heads);
                    }
                }
            }
        }
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
