package io.quotaflow.simulator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an endpoint decided to answer, as a value: the HTTP edge ({@link ReplySender}) sends it now,
 * after a simulated latency, or never.
 */
sealed interface Reply permits Reply.Now, Reply.Later, Reply.Hang {

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

    /** A counted 200 sent after {@code delayMs} of simulated latency, holding no thread meanwhile. */
    record Later(Map<String, String> headers, byte[] body, long delayMs) implements Reply {
        public Later {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    /** No answer at all: the connection is held for {@link ProviderSimulator#HANG} and then closed. */
    record Hang() implements Reply {
    }
}
