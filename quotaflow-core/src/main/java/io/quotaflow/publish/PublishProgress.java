package io.quotaflow.publish;

import java.time.Duration;

/**
 * A snapshot of a running publish, handed to the progress callback about every 200 ms or every
 * 100 records, and once more when done.
 *
 * @param lines        physical lines read so far (blank ones included)
 * @param sent         records handed to the producer so far
 * @param acknowledged records the broker acknowledged so far
 * @param invalid      invalid lines seen so far (skipped or sent anyway)
 * @param failed       records whose send failed so far
 * @param elapsed      time since the publish started
 * @param done         true for the final snapshot, after everything sent was flushed
 */
public record PublishProgress(long lines, long sent, long acknowledged, long invalid, long failed,
                              Duration elapsed, boolean done) {

    /** {@code 312 lines, 300 sent, 290 acknowledged, 3 invalid, 1.2 s}. */
    public String describe() {
        StringBuilder sb = new StringBuilder()
                .append(lines).append(" lines, ")
                .append(sent).append(" sent, ")
                .append(acknowledged).append(" acknowledged");
        if (invalid > 0) {
            sb.append(", ").append(invalid).append(" invalid");
        }
        if (failed > 0) {
            sb.append(", ").append(failed).append(" FAILED");
        }
        return sb.append(", ").append(PublishSummary.seconds(elapsed)).toString();
    }
}
