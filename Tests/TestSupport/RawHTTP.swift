import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over a plain TCP socket to 127.0.0.1: the request goes out byte for byte as
/// written (no path normalised, any header, any framing), the way a hostile or an old client
/// sends it, and the answer is read as it comes.
public struct RawHTTP: Sendable {
    public let port: Int
    /// What requests name in `Host`: `127.0.0.1:PORT` unless told otherwise.
    public let host: String
    /// How long one write or read may wait before the exchange fails.
    public var timeout: Int

    public init(port: Int, host: String? = nil, timeout: Int = 10) {
        self.port = port
        self.host = host ?? "127.0.0.1:\(port)"
        self.timeout = timeout
    }

    /// What the server answered.
    public struct Response: Sendable {
        public var status: Int
        /// Header fields in order, their names lower-cased.
        public var fields: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first field named `name` (any case).
        public func header(_ name: String) -> String? { fields.first { $0.name == name.lowercased() }?.value }
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object, if it is one.
        public var object: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
    }

    /// Why an exchange failed: what was being done and what happened.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// `METHOD TARGET HTTP/1.1` with `Host`, `fields` (`Name: value`), a `Content-Length` for the
    /// body (when a body or a method that carries one is given) and the body, on a connection
    /// of its own; the answer.
    public func request(_ method: String, _ target: String, fields: [String] = [], body: [UInt8] = []) async throws -> Response {
        try await Self.blocking {
            let connection = try Connection(port: port, timeout: timeout)
            var head = ["\(method) \(target) HTTP/1.1", "Host: \(host)"] + fields
            if !body.isEmpty || ["POST", "PUT", "PATCH", "DELETE"].contains(method) { head.append("Content-Length: \(body.count)") }
            try connection.write(Array((head + ["", ""]).joined(separator: "\r\n").utf8) + body)
            return try connection.response()
        }
    }

    /// Runs `work`, which waits on sockets, on a thread of its own: not on one of Swift
    /// concurrency's few threads, which a server in the same process needs to answer.
    public static func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// One TCP connection to the server, written and read in the order a test chooses.
    public final class Connection {
        private let socket: Int32
        private var received: [UInt8] = []
        private var timeout: Int

        public init(port: Int, timeout: Int = 10) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw Failure(description: "no socket: \(String(cString: strerror(errno)))") }
            self.timeout = timeout
            var time = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(socket)
                throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
            }
        }

        deinit { close(socket) }

        /// Writes all of `bytes`; fails when the server has read nothing for `timeout` seconds
        /// (the socket's buffers are full) or has closed the connection.
        public func write(_ bytes: [UInt8]) throws {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else {
                    let reason = errno == EAGAIN ? "the server read nothing for \(timeout) s" : String(cString: strerror(errno))
                    throw Failure(description: "writing the request stopped after \(sent) of \(bytes.count) bytes: \(reason)")
                }
                sent += n
            }
        }

        /// The next response on the connection: its head, then a body of its Content-Length, its
        /// chunks, or (neither) everything until the server closes.
        public func response() throws -> Response {
            let headEnd = try readUntil { Self.find([13, 10, 13, 10], in: $0) }
            let head = String(decoding: received[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            received.removeFirst(headEnd + 4)
            let statusLine = head[0].split(separator: " ")
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                throw Failure(description: "not an HTTP response: \(head[0])")
            }
            let fields = head.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var response = Response(status: status, fields: fields, body: [])
            if status == 304 || status == 204 || (100..<200).contains(status) { return response }
            if let length = response.header("content-length").flatMap({ Int($0) }) {
                response.body = try take(length)
            } else if response.header("transfer-encoding")?.lowercased() == "chunked" {
                while true {
                    let lineEnd = try readUntil { Self.find([13, 10], in: $0) }
                    let size = Int(String(decoding: received[..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                    received.removeFirst(lineEnd + 2)
                    response.body += try take(size)
                    _ = try take(2)
                    if size == 0 { break }
                }
            } else {
                while try readMore() {}
                response.body = received
                received = []
            }
            return response
        }

        /// Whether the server closes the connection within `seconds` (reading and keeping what
        /// it sends meanwhile).
        public func closes(within seconds: Double) throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                var wait = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&wait, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
                if try !readMore() { return true }
            }
            return false
        }

        private func take(_ count: Int) throws -> [UInt8] {
            _ = try readUntil { $0.count >= count ? count : nil }
            defer { received.removeFirst(count) }
            return Array(received[..<count])
        }

        /// Reads until `found` finds what it looks for in what was received.
        private func readUntil(_ found: ([UInt8]) -> Int?) throws -> Int {
            while true {
                if let index = found(received) { return index }
                guard try readMore() else { throw Failure(description: "the server closed the connection in the middle of a response (\(received.count) bytes of it)") }
            }
        }

        /// One read: false when the server has closed the connection.
        private func readMore() throws -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 {
                received += buffer[..<n]
                return true
            }
            if n == 0 || errno == ECONNRESET { return false }
            throw Failure(description: errno == EAGAIN ? "no answer from the server within \(timeout) s" : "reading the answer failed: \(String(cString: strerror(errno)))")
        }

        private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
            guard bytes.count >= needle.count else { return nil }
            return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }
}
