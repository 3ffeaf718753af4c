package io.quotaflow.bench;

import java.util.List;
import java.util.Locale;

/**
 * Whether one series of the soak scenario stayed flat: from the first sample at or after the settle
 * mark (the reference) to the end, no sample more than {@code tolerance} above the reference, and the
 * last one within it either way. Growth is what a leak looks like; a series that falls back after
 * the mark is flat.
 *
 * @param series    what was measured ("heap after GC", a store's name)
 * @param reference the value at the settle mark
 * @param max       the largest value from the mark on
 * @param last      the last value
 * @param flat      whether it stayed within the tolerance
 * @param measured  false when no sample reached the settle mark (too short a run)
 */
public record SoakVerdict(String series, long reference, long max, long last, boolean flat, boolean measured) {

    /** The verdict on {@code values}, sampled at {@code elapsedMs}, from {@code settleMs} on. */
    public static SoakVerdict of(String series, List<Long> elapsedMs, List<Long> values, long settleMs, double tolerance) {
        if (elapsedMs.size() != values.size()) {
            throw new IllegalArgumentException("one time per value");
        }
        int from = 0;
        while (from < elapsedMs.size() && elapsedMs.get(from) < settleMs) {
            from++;
        }
        if (from >= values.size()) {
            return new SoakVerdict(series, 0, 0, 0, false, false);
        }
        long reference = values.get(from);
        long max = reference;
        for (int i = from; i < values.size(); i++) {
            max = Math.max(max, values.get(i));
        }
        long last = values.get(values.size() - 1);
        double slack = Math.max(1, reference) * tolerance;
        boolean flat = max <= reference + slack && Math.abs(last - reference) <= slack;
        return new SoakVerdict(series, reference, max, last, flat, true);
    }

    /** Growth of the largest value over the reference. */
    public double maxGrowth() {
        return reference == 0 ? (max == 0 ? 0 : Double.POSITIVE_INFINITY) : (double) (max - reference) / reference;
    }

    /** Change of the last value against the reference. */
    public double lastChange() {
        return reference == 0 ? (last == 0 ? 0 : Double.POSITIVE_INFINITY) : (double) (last - reference) / reference;
    }

    /** One line: the series, the reference, the largest and the last value, and the verdict. */
    public String describe(boolean bytes) {
        if (!measured) {
            return series + ": not measured (no sample after the settle mark)";
        }
        return String.format(Locale.ROOT, "%s: %s at the mark, at most %s (%+.1f %%), last %s (%+.1f %%): %s", series, fmt(reference, bytes),
                fmt(max, bytes), maxGrowth() * 100, fmt(last, bytes), lastChange() * 100, flat ? "flat" : "NOT flat");
    }

    static String fmt(long value, boolean bytes) {
        return bytes ? String.format(Locale.ROOT, "%.1f MiB", value / 1048576.0) : String.format(Locale.ROOT, "%,d", value);
    }
}
