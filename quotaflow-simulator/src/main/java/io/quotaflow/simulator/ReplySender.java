package io.quotaflow.simulator;

import com.sun.net.httpserver.HttpExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP edge of the simulator: reads request bodies and sends {@link Reply replies}, the
 * delayed ones on the answer timer, so latency and hangs never occupy a thread. The timer runs on
 * real time; this is the only place the simulator waits.
 */
final class ReplySender {

    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ReplySender.class);

    /** The body exceeded {@link #MAX_BODY_BYTES}. */
    static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
    }

    private final ScheduledExecutorService answerTimer;
    private final StatsRecorder stats;
    private final Random random;
    private final SimDialect dialect;
    private final LongSupplier epochMs;

    /**
     * @param random  the simulator's seeded source, which also draws the {@code x-request-id}s
     * @param dialect the dialect every answer is sent in
     * @param epochMs the simulator's wall clock (the dialect's reset instants)
     */
    ReplySender(ScheduledExecutorService answerTimer, StatsRecorder stats, Random random, SimDialect dialect, LongSupplier epochMs) {
        this.answerTimer = answerTimer;
        this.stats = stats;
        this.random = random;
        this.dialect = dialect;
        this.epochMs = epochMs;
    }

    /** The whole request body; at most {@link #MAX_BODY_BYTES}. */
    static byte[] readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (out.size() + n > MAX_BODY_BYTES) {
                    throw new BodyTooLargeException();
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }

    /** Sends {@code reply} now, schedules it, or parks the exchange (a hang). */
    void send(HttpExchange exchange, Reply reply) {
        if (reply instanceof Reply.Now) {
            Reply.Now now = (Reply.Now) reply;
            send(exchange, now.status(), now.headers(), now.body(), now.counted());
        } else if (reply instanceof Reply.Later) {
            Reply.Later later = (Reply.Later) reply;
            schedule(exchange, () -> {
                later.finish();
                send(exchange, 200, later.headersNow(), later.body(), true);
            }, later.delayMs(), later::finish);
        } else if (reply instanceof Reply.Stalled stalled) {
            Reply.Later later = stalled.answer();
            schedule(exchange, () -> {
                later.finish();
                sendHalf(exchange, later.headersNow(), later.body());
            }, later.delayMs(), later::finish);
        } else {
            // Never answers: the connection is closed after HANG, and no handler thread waits for it.
            schedule(exchange, exchange::close, ProviderSimulator.HANG.toMillis(), () -> { });
        }
    }

    private void schedule(HttpExchange exchange, Runnable action, long delayMs, Runnable dropped) {
        stats.inFlight(+1);
        Runnable task = () -> {
            stats.inFlight(-1);
            action.run();
        };
        try {
            answerTimer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            stats.inFlight(-1);
            dropped.run();
            exchange.close();
        }
    }

    /**
     * Sends a 200's headers (announcing the whole body's length) and the first half of the body, then holds the
     * exchange: it is closed after {@link ProviderSimulator#HANG} (short of its length: the connection drops), and
     * no thread waits for it meanwhile.
     */
    private void sendHalf(HttpExchange exchange, Map<String, String> decidedHeaders, byte[] decidedBody) {
        SimDialect.Shaped shaped = dialect.shape(200, decidedHeaders, decidedBody, epochMs.getAsLong());
        byte[] body = shaped.body();
        stats.answered(shaped.status());
        try {
            shaped.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.getResponseHeaders().set("content-type", "application/json");
            exchange.getResponseHeaders().set("x-request-id", "req-sim-" + Long.toHexString(random.nextLong()));
            exchange.sendResponseHeaders(shaped.status(), body.length);
            OutputStream out = exchange.getResponseBody();
            out.write(body, 0, body.length / 2);
            out.flush();
        } catch (IOException e) {
            LOG.debug("Provider simulator: could not send half an answer to {} (client gone?): {}", exchange.getRequestURI(),
                    e.toString());
            exchange.close();
            return;
        }
        schedule(exchange, () -> closeQuietly(exchange), ProviderSimulator.HANG.toMillis(), () -> { });
    }

    private static void closeQuietly(HttpExchange exchange) {
        try {
            exchange.close();
        } catch (RuntimeException e) {
            LOG.debug("Provider simulator: closing a stalled answer: {}", e.toString());
        }
    }

    /**
     * Sends a JSON answer and closes the exchange.
     *
     * @param counted whether the answer belongs to a chat-completion request and counts in the stats
     */
    void send(HttpExchange exchange, int decided, Map<String, String> decidedHeaders, byte[] decidedBody, boolean counted) {
        SimDialect.Shaped shaped = dialect.shape(decided, decidedHeaders, decidedBody, epochMs.getAsLong());
        int status = shaped.status();
        Map<String, String> headers = shaped.headers();
        byte[] body = shaped.body();
        if (counted) {
            stats.answered(status);
        }
        try {
            headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.getResponseHeaders().set("content-type", "application/json");
            exchange.getResponseHeaders().set("x-request-id", "req-sim-" + Long.toHexString(random.nextLong()));
            // HEAD: headers only; a length given for HEAD makes the JDK's server log a warning (java.util.logging)
            boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(body);
                }
            }
        } catch (IOException e) {
            LOG.debug("Provider simulator: could not answer {} (client gone?): {}", exchange.getRequestURI(), e.toString());
        } finally {
            exchange.close();
        }
    }
}
