package io.quotaflow.local;

import java.util.Map;

/**
 * What a demo or benchmark run measured; written as JSON by {@code demo --report-json}.
 *
 * @param tickets          records published (valid tickets plus malformed lines sent on purpose)
 * @param classified       distinct tickets in {@code tickets.classified} (read_committed)
 * @param deadLettered     distinct records in {@code tickets.dlq}
 * @param duplicates       classifications seen more than once for the same ticket (must be 0)
 * @param calls            chat-completion requests the provider received
 * @param http429          requests the provider refused with 429
 * @param promptTokens     prompt tokens the provider counted
 * @param completionTokens completion tokens the provider counted
 * @param tokensAdmitted   tokens the provider's TPM bucket was charged (prompt + max_tokens)
 * @param elapsedMs        publish start to last outcome
 * @param utilization      admitted / allowed for the binding limit, over the busy span
 * @param bindingLimit     {@code TPM} or {@code RPM}
 * @param deadLettersByKind dead letters per {@code qf.error.kind}
 */
public record DemoReport(long tickets, long classified, long deadLettered, long duplicates, long calls, long http429,
                         long promptTokens, long completionTokens, long tokensAdmitted, long elapsedMs, double utilization,
                         String bindingLimit, Map<String, Long> deadLettersByKind, long rpm, long tpm) {

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("quotaflow demo report\n");
        sb.append(String.format("  tickets published   %,d%n", tickets));
        sb.append(String.format("  classified          %,d%n", classified));
        sb.append(String.format("  dead-lettered       %,d %s%n", deadLettered, deadLettersByKind));
        sb.append(String.format("  duplicates          %,d%n", duplicates));
        sb.append(String.format("  calls               %,d%n", calls));
        sb.append(String.format("  HTTP 429            %,d%n", http429));
        sb.append(String.format("  prompt tokens       %,d%n", promptTokens));
        sb.append(String.format("  completion tokens   %,d%n", completionTokens));
        sb.append(String.format("  tokens admitted     %,d (prompt + max_tokens, what the TPM limit counts)%n", tokensAdmitted));
        sb.append(String.format("  elapsed             %.1f s%n", elapsedMs / 1000.0));
        sb.append(String.format("  limits              %,d RPM, %,d TPM; binding: %s%n", rpm, tpm, bindingLimit));
        sb.append(String.format("  utilisation         %.1f %% of the %s limit while busy%n", utilization * 100, bindingLimit));
        return sb.toString();
    }
}
