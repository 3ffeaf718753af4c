package io.quotaflow.provider;

import java.util.Locale;
import java.util.Objects;

/**
 * One check's verdict on one subject ({@code route default}, {@code cluster}, {@code topics}): {@code ok},
 * {@code FAIL} or {@code skip} (could not be told, counts as no failure), what was checked, and the
 * detail, secrets removed.
 */
public record ProbeLine(Verdict verdict, String subject, String check, String detail) {

    /** A check's outcome. */
    public enum Verdict {
        OK("ok"), FAIL("FAIL"), SKIP("skip");

        private final String word;

        Verdict(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    public ProbeLine {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(detail, "detail");
    }

    public boolean failed() {
        return verdict == Verdict.FAIL;
    }

    /** {@code ok   route default: reachable: http://…/v1 answered GET /models (200) in 12 ms}. */
    public String text() {
        return String.format(Locale.ROOT, "%-4s %s: %s: %s", verdict.word(), subject, check, detail);
    }

    @Override
    public String toString() {
        return text();
    }
}
