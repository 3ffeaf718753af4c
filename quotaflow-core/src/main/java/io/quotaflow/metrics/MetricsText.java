package io.quotaflow.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.nio.charset.StandardCharsets;

/**
 * The Prometheus text (format 0.0.4) of a registry, without the samples that are NaN at the moment
 * (a Kafka average or maximum over a window without events, a value that does not exist yet): a NaN
 * sample means "unknown", makes every comparison in an alert rule false and is stored as a series
 * all the same, so the page leaves it out, and a family left without samples leaves the page too.
 */
public final class MetricsText {

    private MetricsText() {
    }

    /** The page's bytes (UTF-8). */
    public static byte[] render(PrometheusMeterRegistry registry) {
        return withoutNaN(registry.scrape()).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code text} without its NaN samples, and without the {@code # HELP} and {@code # TYPE} lines of a
     * family none of whose samples is left.
     */
    static String withoutNaN(String text) {
        StringBuilder out = new StringBuilder(text.length());
        StringBuilder header = new StringBuilder();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            String line = text.substring(start, end);
            start = end + 1;
            if (line.startsWith("#")) {
                if (line.startsWith("# HELP ")) {
                    header.setLength(0);
                }
                header.append(line).append('\n');
            } else if (!line.isEmpty() && !isNaN(line)) {
                out.append(header).append(line).append('\n');
                header.setLength(0);
            }
        }
        return out.toString();
    }

    /** Whether a sample line's value is NaN (the exposition writes no timestamps). */
    private static boolean isNaN(String sample) {
        return sample.endsWith(" NaN");
    }
}
