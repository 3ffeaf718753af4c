package io.quotaflow.tracing;

import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;

import java.util.ArrayList;
import java.util.List;

/** The W3C trace-context headers a ticket carries among its producer headers. */
public final class TraceHeaders {

    /** W3C {@code traceparent}. */
    public static final String TRACEPARENT = "traceparent";

    /** W3C {@code tracestate}. */
    public static final String TRACESTATE = "tracestate";

    private TraceHeaders() {
    }

    static boolean isTraceHeader(String key) {
        return TRACEPARENT.equalsIgnoreCase(key) || TRACESTATE.equalsIgnoreCase(key);
    }

    /** The value of {@code key} among {@code item}'s headers (the last one), or null. */
    static String get(WorkItem item, String key) {
        String found = null;
        for (WorkItem.Header h : item.headers()) {
            if (h.key().equalsIgnoreCase(key) && h.value() != null) {
                found = new String(h.value(), java.nio.charset.StandardCharsets.US_ASCII);
            }
        }
        return found;
    }

    /** {@code item} with its trace headers replaced by {@code traceparent} and {@code tracestate} (null: none). */
    static WorkItem with(WorkItem item, String traceparent, String tracestate) {
        List<WorkItem.Header> headers = new ArrayList<>(item.headers().size() + 2);
        for (WorkItem.Header h : item.headers()) {
            if (!isTraceHeader(h.key())) {
                headers.add(h);
            }
        }
        headers.add(new WorkItem.Header(TRACEPARENT, traceparent.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        if (tracestate != null && !tracestate.isEmpty()) {
            headers.add(new WorkItem.Header(TRACESTATE, tracestate.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        }
        return item.withHeaders(headers);
    }

    /** Adds {@code item}'s trace headers, if it has any, to {@code headers} (in place of any there). */
    public static void copy(WorkItem item, Headers headers) {
        for (WorkItem.Header h : item.headers()) {
            if (isTraceHeader(h.key()) && h.value() != null) {
                headers.remove(h.key());
                headers.add(h.key(), h.value());
            }
        }
    }
}
