package io.quotaflow.settings;

import java.math.BigDecimal;

/**
 * A route's prices in US dollars per million tokens ({@code route.<name>.price.input-per-mtok},
 * {@code .output-per-mtok}), for the cost metric and the reports. {@link #NONE} when not configured.
 *
 * @param inputPerMtok  dollars per million prompt tokens, {@code >= 0}
 * @param outputPerMtok dollars per million completion tokens, {@code >= 0}
 */
public record Prices(double inputPerMtok, double outputPerMtok) {

    /** No prices configured: the cost metric stays at 0. */
    public static final Prices NONE = new Prices(0, 0);

    /**
     * <em>Assumed</em> prices of gpt-4o-mini (OpenAI's list price when written: $0.15 per million
     * input and $0.60 per million output tokens), which the demo and the benchmark report cost with;
     * never read from a provider, and not applied to any configured route.
     */
    public static final Prices ASSUMED_GPT_4O_MINI = new Prices(0.15, 0.60);

    public Prices {
        QuotaSettings.require(Double.isFinite(inputPerMtok) && inputPerMtok >= 0, "price.input-per-mtok must be >= 0");
        QuotaSettings.require(Double.isFinite(outputPerMtok) && outputPerMtok >= 0, "price.output-per-mtok must be >= 0");
    }

    /** Whether either price is set. */
    public boolean configured() {
        return inputPerMtok > 0 || outputPerMtok > 0;
    }

    /** {@code $0.15 / $0.60 per Mtok (input / output)}. */
    public String describe() {
        return "$" + plain(inputPerMtok) + " / $" + plain(outputPerMtok) + " per Mtok (input / output)";
    }

    /** Dollars with at least two decimals: {@code 0.60}, {@code 0.075}. */
    private static String plain(double value) {
        BigDecimal v = BigDecimal.valueOf(value).stripTrailingZeros();
        return (v.scale() < 2 ? v.setScale(2) : v).toPlainString();
    }

    /** The cost in dollars of a call that used {@code promptTokens} and {@code completionTokens}. */
    public double cost(long promptTokens, long completionTokens) {
        return (promptTokens * inputPerMtok + completionTokens * outputPerMtok) / 1_000_000.0;
    }
}
