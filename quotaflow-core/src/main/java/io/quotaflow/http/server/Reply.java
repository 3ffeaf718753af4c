package io.quotaflow.http.server;

import io.quotaflow.metrics.HealthCheck;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What an endpoint of the {@link StatusServer} answers, the common answers (busy, unauthorized, a
 * failure, a health report), the bearer token of a request, and the sending of an answer.
 */
record Reply(int status, String type, byte[] body, Map<String, String> headers) {

    static final String JSON = "application/json";
    static final String TEXT = "text/plain; charset=utf-8";
    private static final String REALM = "Bearer realm=\"quotaflow\"";
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);

    Reply(int status, String type, String body) {
        this(status, type, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Reply with(String header, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(header, value);
        return new Reply(status, type, body, more);
    }

    static Reply answer(Supplier<Reply> endpoint) {
        try {
            return endpoint.get();
        } catch (RuntimeException e) {
            LOG.warn("HTTP endpoint failed", e);
            return new Reply(500, TEXT, "internal error: " + e.getClass().getSimpleName() + "\n");
        }
    }

    static Reply busy(String why) {
        return new Reply(503, TEXT, "busy: " + why + "; try again\n").with("Retry-After", "1");
    }

    static Optional<String> bearer(Request request) {
        String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (header == null || header.length() < 7 || !header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return Optional.empty();
        }
        return Optional.of(header.substring(7).strip());
    }

    static Reply unauthorized(Request request) {
        if (bearer(request).isEmpty()) {
            return new Reply(401, TEXT, "unauthorized: send Authorization: Bearer <token> (one of http.tokens-file or http.auth-token-file)\n")
                    .with("WWW-Authenticate", REALM);
        }
        return new Reply(401, TEXT, "unauthorized: the bearer token is not one configured\n")
                .with("WWW-Authenticate", REALM + ", error=\"invalid_token\"");
    }

    /** Sends {@code reply}; for HEAD Jetty sends the same headers (Content-Length included) and no body. */
    static void send(Response response, Callback callback, Reply reply) {
        response.setStatus(reply.status());
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, reply.type());
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        reply.headers().forEach(headers::put);
        headers.put(HttpHeader.CONTENT_LENGTH, reply.body().length);
        response.write(true, ByteBuffer.wrap(reply.body()), callback);
    }

    static Reply report(HealthCheck.Report report) {
        return new Reply(report.status(), JSON, report.json());
    }
}
