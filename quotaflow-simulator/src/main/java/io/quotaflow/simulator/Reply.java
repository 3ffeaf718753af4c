package io.quotaflow.simulator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an endpoint decided to answer, as a value: the HTTP edge ({@link ReplySender}) sends it now,
 * after a simulated latency, or never.
 */
sealed interface Reply permits Reply.Now, Reply.Later, Reply.Stalled, Reply.Hang {

    /**
     * A JSON answer sent at once.
     *
     * @param counted whether it belongs to a chat-completion request and counts in the statistics
     */
    record Now(int status, Map<String, String> headers, byte[] body, boolean counted) implements Reply {
        public Now {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    /**
     * A counted 200 sent after {@code delayMs} of simulated latency, holding no thread meanwhile.
     *
     * @param atAnswer rate-limit headers taken when the answer is sent, overriding those in {@code headers};
     *                 null: {@code headers} as they are (taken at admission)
     * @param done     run once the answer is sent or dropped (an engine's call stops running); null: nothing
     */
    record Later(Map<String, String> headers, byte[] body, long delayMs, Supplier<Map<String, String>> atAnswer,
                 Runnable done) implements Reply {
        public Later {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }

        Later(Map<String, String> headers, byte[] body, long delayMs, Supplier<Map<String, String>> atAnswer) {
            this(headers, body, delayMs, atAnswer, null);
        }

        Later(Map<String, String> headers, byte[] body, long delayMs) {
            this(headers, body, delayMs, null, null);
        }

        /** Runs {@link #done()}, if any. */
        void finish() {
            if (done != null) {
                done.run();
            }
        }

        /** The headers to send now. */
        Map<String, String> headersNow() {
            if (atAnswer == null) {
                return headers;
            }
            Map<String, String> now = new LinkedHashMap<>(headers);
            now.putAll(atAnswer.get());
            return now;
        }
    }

    /**
     * The {@code answer}'s headers and the first half of its body, sent after its latency, and then nothing: the
     * connection is held open and closed after {@link ProviderSimulator#HANG}, holding no thread meanwhile.
     */
    record Stalled(Later answer) implements Reply {
    }

    /** No answer at all: the connection is held for {@link ProviderSimulator#HANG} and then closed. */
    record Hang() implements Reply {
    }
}
