package io.quotaflow.simulator;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A window {@code [start, end)} measured from the simulator's start, during which every
 * chat-completion request gets 503: for every model, or only for {@link #model()} when one is named.
 *
 * @param model the one model the outage takes down, or empty for every model
 */
public record Outage(Duration start, Duration end, Optional<String> model) {
    public Outage {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(model, "model");
        if (start.isNegative() || end.compareTo(start) <= 0) {
            throw new IllegalArgumentException("outage needs 0 <= start < end: " + start + ".." + end);
        }
        if (model.isPresent() && (model.get().isBlank() || !model.get().strip().equals(model.get()))) {
            throw new IllegalArgumentException("an outage's model must be a name without surrounding spaces: '"
                    + model.get() + "'");
        }
    }

    /** An outage of every model. */
    public Outage(Duration start, Duration end) {
        this(start, end, Optional.empty());
    }

    /**
     * Parses {@code START:END} (every model) or {@code MODEL@START:END} (that model only), seconds
     * after the simulator's start, e.g. {@code 30:90}, {@code 2.5:4} or {@code gpt-4o-mini@30:90}.
     *
     * @throws IllegalArgumentException when the text is not two non-negative numbers with start &lt; end,
     *                                  optionally after a model name and '@'
     */
    public static Outage parse(String text) {
        Objects.requireNonNull(text, "text");
        String window = text.strip();
        Optional<String> model = Optional.empty();
        int at = window.lastIndexOf('@');
        if (at >= 0) {
            String name = window.substring(0, at).strip();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("outage must be [MODEL@]START:END with a model name before '@', "
                        + "e.g. gpt-4o-mini@30:90: " + text);
            }
            model = Optional.of(name);
            window = window.substring(at + 1);
        }
        String[] parts = window.strip().split(":", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("outage must be [MODEL@]START:END in seconds, e.g. 30:90 or "
                    + "gpt-4o-mini@30:90: " + text);
        }
        return new Outage(seconds(parts[0], text), seconds(parts[1], text), model);
    }

    private static Duration seconds(String value, String text) {
        BigDecimal seconds;
        try {
            seconds = new BigDecimal(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("outage must be [MODEL@]START:END in seconds, e.g. 30:90: " + text);
        }
        if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L)) > 0) {
            throw new IllegalArgumentException("outage times must be between 0 and a few centuries: " + text);
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    /** Whether {@code sinceStart} is in {@code [start, end)}. */
    public boolean contains(Duration sinceStart) {
        return sinceStart.compareTo(start) >= 0 && sinceStart.compareTo(end) < 0;
    }

    /** Whether this outage takes down {@code modelName} at {@code sinceStart}. */
    public boolean covers(String modelName, Duration sinceStart) {
        return model.map(m -> m.equals(modelName)).orElse(true) && contains(sinceStart);
    }

    /** {@code START:END} or {@code MODEL@START:END} in seconds, the form {@link #parse} reads. */
    @Override
    public String toString() {
        return model.map(m -> m + "@").orElse("") + seconds(start) + ":" + seconds(end);
    }

    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
    }
}
