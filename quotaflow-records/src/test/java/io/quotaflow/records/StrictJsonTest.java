package io.quotaflow.records;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of {@link StrictJson}'s Unicode checks, against the JDK's strict coders. */
class StrictJsonTest {

    @Provide
    Arbitrary<byte[]> utf8ish() {
        // mostly the bytes that matter: ASCII, continuation bytes and every kind of lead byte
        Arbitrary<Integer> b = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(0x20, 0x7E)),
                Tuple.of(4, Arbitraries.integers().between(0x80, 0xBF)),
                Tuple.of(1, Arbitraries.integers().between(0xC0, 0xC1)),
                Tuple.of(2, Arbitraries.integers().between(0xC2, 0xDF)),
                Tuple.of(2, Arbitraries.integers().between(0xE0, 0xEF)),
                Tuple.of(2, Arbitraries.integers().between(0xF0, 0xF4)),
                Tuple.of(1, Arbitraries.integers().between(0xF5, 0xFF)));
        return b.list().ofMaxSize(12).map(list -> {
            byte[] out = new byte[list.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (int) list.get(i);
            }
            return out;
        });
    }

    @Property(tries = 5_000)
    void shouldValidateUtf8ExactlyAsTheJdkDecoderDoes(@ForAll("utf8ish") byte[] bytes) {
        assertThat(StrictJson.invalidUtf8At(bytes) < 0).as(java.util.HexFormat.of().formatHex(bytes))
                .isEqualTo(jdkDecodes(bytes));
    }

    @Property(tries = 1_000)
    void shouldAcceptEveryEncodedString(@ForAll String s) {
        if (StrictJson.wellFormed(s)) {
            assertThat(StrictJson.invalidUtf8At(s.getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
        }
    }

    @Provide
    Arbitrary<String> surrogateHeavy() {
        return Arbitraries.frequencyOf(
                        Tuple.of(2, Arbitraries.chars().range('a', 'z')),
                        Tuple.of(3, Arbitraries.chars().range('\uD800', '\uDFFF')))
                .list().ofMaxSize(8)
                .map(chars -> {
                    StringBuilder sb = new StringBuilder();
                    chars.forEach(sb::append);
                    return sb.toString();
                });
    }

    @Property(tries = 3_000)
    void shouldFindUnpairedSurrogatesExactlyAsTheJdkEncoderDoes(@ForAll("surrogateHeavy") String s) {
        assertThat(StrictJson.wellFormed(s)).isEqualTo(jdkEncodes(s));
    }

    @Property(tries = 500)
    void shouldCapSnippets(@ForAll("surrogateHeavy") String s, @ForAll @IntRange(min = 1, max = 20) int max) {
        String snippet = StrictJson.snippet(s.repeat(4), max);

        assertThat(snippet.length()).isLessThanOrEqualTo(max + 1 + 3 + 5); // a pair or an escape may straddle the cap
        assertThat(StrictJson.wellFormed(snippet)).isTrue();
    }

    @Property(tries = 200)
    void shouldRejectEveryValueWithAnInvalidByteSequence(@ForAll("utf8ish") byte[] bytes) {
        if (StrictJson.invalidUtf8At(bytes) >= 0) {
            byte[] json = concat("{\"id\":\"T-1\",\"body\":\"".getBytes(StandardCharsets.UTF_8), bytes,
                    "\"}".getBytes(StandardCharsets.UTF_8));
            assertThat(TicketParser.parse(json)).isEqualTo(new TicketParser.Invalid("invalid UTF-8 byte sequence"));
        }
    }

    @Property(tries = 50)
    void shouldDescribeEveryRejectionBriefly(@ForAll("utf8ish") byte[] bytes) {
        for (byte[] value : List.of(bytes, concat("{\"".getBytes(StandardCharsets.UTF_8), bytes))) {
            if (TicketParser.parse(value) instanceof TicketParser.Invalid invalid) {
                assertThat(invalid.reason()).hasSizeLessThan(130);
                assertThat(StrictJson.wellFormed(invalid.reason())).isTrue();
            }
        }
    }

    private static boolean jdkDecodes(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean jdkEncodes(String s) {
        try {
            StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(s));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
