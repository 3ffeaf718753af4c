package io.quotaflow.quota;

/**
 * One limit a provider puts on a quota scope, by its label in {@code quotaflow_quota_limit} and
 * {@code quotaflow_quota_available} ({@code dimension}) and in {@code /status}.
 */
public enum QuotaDimension {
    REQUESTS("requests"),
    TOKENS("tokens"),
    INPUT_TOKENS("input-tokens"),
    OUTPUT_TOKENS("output-tokens"),
    REQUESTS_PER_DAY("requests-per-day"),
    TOKENS_PER_DAY("tokens-per-day");

    private final String label;

    QuotaDimension(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** What {@code charge} costs in this dimension. */
    public long of(Charge charge) {
        switch (this) {
            case REQUESTS:
            case REQUESTS_PER_DAY:
                return charge.requests();
            case INPUT_TOKENS:
                return charge.inputTokens();
            case OUTPUT_TOKENS:
                return charge.outputTokens();
            default:
                return charge.tokens();
        }
    }
}
