package io.quotaflow.http;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/**
 * Body handlers whose answers have a bounded size: a whole answer up to a cap of bytes
 * ({@link #ofString}, {@link #capped}), or an answer streamed line by line, each line up to a cap and never the
 * whole answer in memory ({@link #ofLines}). An answer past its cap stops being read, its exchange is aborted
 * (the connection closed), and its body fails with an {@link AnswerTooLargeException}. Pair them with
 * {@link BoundedCall#send} for the whole-call deadline.
 */
public final class BoundedBodies {

    private BoundedBodies() {
    }

    /** The answer as a string (decoded by its {@code Content-Type} charset, UTF-8 by default) of at most {@code maxBytes}. */
    public static HttpResponse.BodyHandler<String> ofString(long maxBytes) {
        positive(maxBytes, "maxBytes");
        return info -> new GuardedSubscriber<>(HttpResponse.BodySubscribers.ofString(charset(info.headers())),
                info.statusCode(), maxBytes, GuardedSubscriber.UNLIMITED);
    }

    /** {@code handler}'s body, of at most {@code maxBytes} (counted before any decoding). */
    public static <T> HttpResponse.BodyHandler<T> capped(HttpResponse.BodyHandler<T> handler, long maxBytes) {
        Objects.requireNonNull(handler, "handler");
        positive(maxBytes, "maxBytes");
        return info -> new GuardedSubscriber<>(handler.apply(info), info.statusCode(), maxBytes, GuardedSubscriber.UNLIMITED);
    }

    /**
     * The answer line by line (a JSONL file): {@code onLine} gets each line, without its line break, in order, on
     * the client's executor, as the bytes arrive; the body is the number of lines. A line longer than
     * {@code maxLineBytes} or an answer longer than {@code maxBytes} ({@link Long#MAX_VALUE}: no cap of the whole)
     * fails the body with an {@link AnswerTooLargeException}; an exception thrown by {@code onLine} aborts the
     * exchange and fails the body with it. Only the current line is held in memory.
     */
    public static HttpResponse.BodyHandler<Long> ofLines(long maxLineBytes, long maxBytes, Consumer<String> onLine) {
        positive(maxLineBytes, "maxLineBytes");
        positive(maxBytes, "maxBytes");
        Objects.requireNonNull(onLine, "onLine");
        return info -> {
            LineSink sink = new LineSink(onLine);
            GuardedSubscriber<Long> guarded = new GuardedSubscriber<>(
                    HttpResponse.BodySubscribers.fromLineSubscriber(sink, LineSink::count, charset(info.headers()), null),
                    info.statusCode(), maxBytes, maxLineBytes);
            sink.owner = guarded;
            return guarded;
        };
    }

    /** The charset a {@code Content-Type} names; UTF-8 when it names none or one this JVM does not know. */
    static Charset charset(HttpHeaders headers) {
        String type = headers.firstValue("content-type").orElse("");
        for (String part : type.split(";")) {
            String p = part.strip();
            if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                String name = p.substring("charset=".length()).replace("\"", "").strip();
                try {
                    return Charset.forName(name);
                } catch (IllegalArgumentException unknown) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    private static void positive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0: " + value);
        }
    }

    /** Hands each line to the caller's consumer; a consumer's exception aborts the exchange. */
    private static final class LineSink implements Flow.Subscriber<String> {

        private final Consumer<String> onLine;
        private GuardedSubscriber<Long> owner;
        private long count;
        private boolean stopped;

        LineSink(Consumer<String> onLine) {
            this.onLine = onLine;
        }

        long count() {
            return count;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (stopped) {
                return;
            }
            try {
                onLine.accept(line);
                count++;
            } catch (RuntimeException e) {
                stopped = true;
                owner.abort(e);
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the body's future carries it
        }

        @Override
        public void onComplete() {
            // the body's future carries the count
        }
    }
}
