package dev.muster.bridge.airflow.api;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.bridge.airflow.generated.v2auth.api.SimpleAuthManagerLoginApi;
import dev.muster.bridge.airflow.generated.v2auth.client.ApiClient;
import dev.muster.bridge.airflow.generated.v2auth.client.ApiException;
import dev.muster.bridge.airflow.generated.v2auth.model.LoginBody;
import java.util.Map;

/**
 * The JWT of REST API v2: taken from {@code POST /auth/token} with the configured user and password
 * when first needed, kept until a call is refused with 401.
 */
@ThreadSafe
final class JwtTokens {
    private final AirflowSettings settings;
    private final SimpleAuthManagerLoginApi login;
    @GuardedBy("this")
    private String token;

    JwtTokens(AirflowSettings settings) {
        this.settings = settings;
        ApiClient client = new ApiClient(HttpClients.builder(settings), ApiClient.createDefaultObjectMapper(), V2Conversions.base(settings));
        client.setReadTimeout(settings.requestTimeout());
        this.login = new SimpleAuthManagerLoginApi(client);
    }

    /** The header that authenticates a call. */
    Map<String, String> authorization() {
        return Map.of("Authorization", "Bearer " + token());
    }

    synchronized void invalidate() {
        token = null;
    }

    private synchronized String token() {
        if (token == null) {
            LoginBody body = new LoginBody().username(settings.username()).password(settings.password());
            try {
                token = login.createToken(SimpleAuthManagerLoginApi.APICreateTokenRequest.newBuilder()
                        .loginBody(body).contentType("application/json").build()).getAccessToken();
            } catch (ApiException e) {
                throw ApiFailures.classify(settings, "POST /auth/token", e.getCode(), e.getCause(), e.getResponseBody());
            }
        }
        return token;
    }
}
