package dev.muster.bridge.airflow.pods;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.hash.Hashing;
import java.util.regex.Pattern;

/**
 * Airflow's {@code make_safe_label_value} (cncf.kubernetes provider 10.25.0, {@code pod_generator.py}):
 * what a label value becomes on a pod Airflow launched. A run id such as
 * {@code manual__2026-12-01T22:56:58.266131+00:00} holds characters a label may not, so its label is
 * the id stripped of them, cut to 53 characters, a dash and the first 9 hex digits of the id's MD5.
 * Our own code because nothing in Java computes Airflow's rule, and the bridge must find the run a
 * pod's {@code run_id} label came from; {@code SafeLabelValueTest} holds it to the real function.
 */
public final class SafeLabelValue {
    private static final int MAX_LABEL_LENGTH = 63;
    private static final int HASH_LENGTH = 9;
    private static final Pattern UNSAFE = Pattern.compile("^[^a-z0-9A-Z]*|[^a-zA-Z0-9_\\-.]|[^a-z0-9A-Z]*$");

    private SafeLabelValue() {}

    public static String of(String value) {
        String safe = UNSAFE.matcher(value).replaceAll("");
        if (safe.length() > MAX_LABEL_LENGTH || !safe.equals(value)) {
            @SuppressWarnings("deprecation") // MD5 as Airflow uses it: a short tag, not for security
            String hash = Hashing.md5().hashString(value, UTF_8).toString().substring(0, HASH_LENGTH);
            safe = safe.substring(0, Math.min(safe.length(), MAX_LABEL_LENGTH - HASH_LENGTH - 1)) + "-" + hash;
        }
        return safe;
    }
}
