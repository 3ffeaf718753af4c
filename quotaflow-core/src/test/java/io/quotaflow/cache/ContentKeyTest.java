package io.quotaflow.cache;

import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The content key: what makes two tickets the same question (docs/design.md, "Cache"). */
class ContentKeyTest {

    private static final List<String> CATEGORIES = List.of("billing", "technical", "other");
    private static final List<String> URGENCIES = List.of("low", "high");

    private static ContentKey key(String subject, String body) {
        return ContentKey.of(subject, body, "gpt-4o-mini", CATEGORIES, URGENCIES, "1");
    }

    @Test
    void shouldGiveTheSameKeyForWhitespaceVariants() {
        ContentKey plain = key("Invoice wrong", "I was charged twice. Please refund.");

        assertThat(key("  Invoice wrong\t", "I was charged twice.\n\nPlease refund.  ")).isEqualTo(plain);
        assertThat(key("Invoice\u00a0 wrong", "I was\r\ncharged   twice. Please\u2003refund.")).isEqualTo(plain);
        assertThat(plain.hex()).matches("[0-9a-f]{64}");
    }

    @Test
    void shouldNormaliseByTrimmingAndCollapsingWhiteSpaceOnly() {
        assertThat(ContentKey.normalise(" \t a \n\n b\u00a0\u00a0c  ")).isEqualTo("a b c");
        assertThat(ContentKey.normalise(null)).isEmpty();
        assertThat(ContentKey.normalise("Mixed CASE, kept.")).isEqualTo("Mixed CASE, kept.");
    }

    @Test
    void shouldCallWhiteSpaceExactlyWhatTheUnicodeRegexCallsWhiteSpace() {
        Pattern regex = Pattern.compile("\\s", Pattern.UNICODE_CHARACTER_CLASS);
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String one = String.valueOf((char) c);
            assertThat(ContentKey.isWhiteSpace((char) c)).as("U+%04X", c).isEqualTo(regex.matcher(one).matches());
        }
    }

    @Test
    void shouldNormaliseRandomTextsAsTheRegexDefinitionDoes() {
        Pattern runs = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);
        // white space of every kind, characters strip() removes but the regex keeps (U+001C..U+001F),
        // look-alikes that are not white space (U+200B, U+180E, U+FEFF), letters and a surrogate pair
        String[] alphabet = {" ", "  ", "\t", "\n", "\r\n", "\u000b", "\f", "\u0085", "\u00a0", "\u1680", "\u2003", "\u200a",
            "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u001c", "\u001f", "\u200b", "\u180e", "\ufeff", "a", "Z", "é",
            "ç", "\ud83d\ude00", ".", "-"};
        Random random = new Random(42);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            int parts = random.nextInt(12);
            for (int i = 0; i < parts; i++) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String t = text.toString();
            assertThat(ContentKey.normalise(t)).as("%s", t.codePoints().mapToObj(Integer::toHexString).toList())
                    .isEqualTo(runs.matcher(t).replaceAll(" ").strip());
        }
    }

    @Test
    void shouldTreatAMissingTextAndABlankOneAlike() {
        assertThat(key(null, "body")).isEqualTo(key("   ", "body")).isEqualTo(key("", "body"));
    }

    @Test
    void shouldGiveDifferentKeysForDifferentText() {
        ContentKey plain = key("Invoice wrong", "Charged twice");

        assertThat(key("invoice wrong", "Charged twice")).isNotEqualTo(plain);
        assertThat(key("Invoice wrong", "Charged twice!")).isNotEqualTo(plain);
        assertThat(key("Invoice  wrongCharged", "twice")).isNotEqualTo(key("Invoice wrong", "Charged twice"));
    }

    @Test
    void shouldKeepSubjectAndBodyApart() {
        assertThat(key("a", null)).isNotEqualTo(key(null, "a"));
        assertThat(key("a b", "c")).isNotEqualTo(key("a", "b c"));
        assertThat(key("ab", null)).isNotEqualTo(key("a", "b"));
    }

    @Test
    void shouldGiveDifferentKeysForAnotherModelOtherSetsOrAnotherPromptVersion() {
        ContentKey base = key("s", "b");

        assertThat(ContentKey.of("s", "b", "gpt-4.1-mini", CATEGORIES, URGENCIES, "1")).isNotEqualTo(base);
        assertThat(ContentKey.of("s", "b", "gpt-4o-mini", List.of("billing", "technical"), URGENCIES, "1")).isNotEqualTo(base);
        assertThat(ContentKey.of("s", "b", "gpt-4o-mini", List.of("other", "billing", "technical"), URGENCIES, "1"))
                .as("the order of a set is part of the prompt").isNotEqualTo(base);
        assertThat(ContentKey.of("s", "b", "gpt-4o-mini", CATEGORIES, List.of("low", "high", "critical"), "1")).isNotEqualTo(base);
        assertThat(ContentKey.of("s", "b", "gpt-4o-mini", CATEGORIES, URGENCIES, "2")).isNotEqualTo(base);
        assertThat(ContentKey.of("s", "b", "gpt-4o-mini", List.of("billing", "technical", "other"), List.of("low", "high"), "1"))
                .as("equal values, other list instances").isEqualTo(base);
    }

    @Test
    void shouldKeyATicketByWhatTheModelSeesUnderTheConfiguredContract() {
        CacheFixture fixture = new CacheFixture();
        WorkItem one = fixture.ticket("T-1", "Login fails", "Error 500 after  the update");
        WorkItem other = fixture.ticket("T-2", " Login fails ", "Error 500 after the\nupdate");

        ContentKey expected = ContentKey.of("Login fails", "Error 500 after the update", CacheFixture.MODEL.model(),
                CacheFixture.MODEL.categories(), CacheFixture.MODEL.urgencies(), PromptBuilder.PROMPT_VERSION);
        assertThat(ContentKey.of(one, CacheFixture.MODEL)).isEqualTo(expected);
        assertThat(ContentKey.of(other, CacheFixture.MODEL)).as("other id and whitespace, same content").isEqualTo(expected);
        assertThat(ContentKey.of(new ModelItem("T-3", "Login fails", "Error 500 after the update"), CacheFixture.MODEL)).isEqualTo(expected);
        assertThat(ContentKey.of(one, CacheFixture.MODEL.withContextTokens(8_192)))
                .as("the context window is not part of the question").isEqualTo(expected);
    }

    @Test
    void shouldBuildTheSameKeyFromAContentHashComputedBeforehand() {
        String content = ContentKey.contentHash(" Invoice  wrong", "Charged twice");

        assertThat(content).isEqualTo(ContentKey.contentHash("Invoice wrong", "Charged\ttwice ")).matches("[0-9a-f]{64}");
        assertThat(ContentKey.contentHash("a", null)).isNotEqualTo(ContentKey.contentHash(null, "a"));
        assertThat(ContentKey.of(content, CacheFixture.MODEL))
                .isEqualTo(ContentKey.of(new ModelItem("T-1", "Invoice wrong", "Charged twice"), CacheFixture.MODEL))
                .isNotEqualTo(new ContentKey(content));
    }

    @Test
    void shouldRefuseAKeyThatIsNotSixtyFourLowerCaseHexDigits() {
        assertThatThrownBy(() -> new ContentKey("ABC")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContentKey("G".repeat(64))).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ContentKey("0".repeat(64)).toString()).isEqualTo("0".repeat(64));
    }

    @Test
    void shouldHashTheLengthPrefixedEncodingOfADataOutputStream() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            for (String part : List.of("Ol\u00e1, n\u00e3o consigo entrar", "")) {
                byte[] utf8 = part.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
        }
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));

        assertThat(ContentKey.contentHash("  Ol\u00e1,\n n\u00e3o   consigo entrar ", null)).isEqualTo(expected);
    }
}
