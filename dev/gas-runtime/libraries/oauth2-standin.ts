/*
 * Stand-in for the apps-script-oauth2 library (googleworkspace/apps-script-oauth2, v43), written
 * from its documented behaviour for the local runtime. One plain script without ES modules; the
 * runtime compiles it with esbuild's transform and evaluates it in the library's own context,
 * and the namespace `OAuth2` is what it declares at top level (createService, getRedirectUri,
 * getServiceNames, TOKEN_FORMAT, STORAGE_PREFIX_).
 *
 * It must behave like the library and do nothing more: the add-on has to work unchanged with the
 * real library (GAS_LIBRARY_OAuth2=/path/to/OAuth2.gs). Notable library behaviours kept here:
 * the token is stored under `oauth2.<name>` as the raw token response plus `expiresAt` (seconds);
 * a token counts as expired 60 s early; a refresh keeps the old refresh_token when the response
 * omits one; hasAccess re-reads the token under the lock before refreshing; the lock wrapper has
 * no finally; refresh failures inside hasAccess are kept for getLastError and return false; the
 * PKCE verifier travels inside the state token; client credentials go in the body unless a
 * payload handler removes them; handleCallback and refresh require a client secret (v1.43.0; later,
 * unreleased commits drop that); generateCodeVerifier uses Math.random (as the library does).
 *
 * The harness loads the real release (../shared/vendor/apps-script-oauth2/OAuth2.gs) when it is
 * there; this stand-in serves where it is not, and the OAuth2 library parity test holds the two to the
 * same observations.
 */

/* eslint-disable @typescript-eslint/no-explicit-any, no-var, @typescript-eslint/no-unused-vars -- a library script: its top-level declarations are its public API */

type TokenObject = Record<string, any>;
type Params = Record<string, string>;

var TOKEN_FORMAT = {
  JSON: 'application/json',
  FORM_URL_ENCODED: 'application/x-www-form-urlencoded',
};

var STORAGE_PREFIX_ = 'oauth2.';

function createService(serviceName: string): Service_ {
  return new Service_(serviceName);
}

function getRedirectUri(optScriptId?: string): string {
  const scriptId = optScriptId || ScriptApp.getScriptId();
  return 'https://script.google.com/macros/d/' + encodeURIComponent(scriptId) + '/usercallback';
}

function getServiceNames(propertyStore: GoogleAppsScript.Properties.Properties): string[] {
  const names: string[] = [];
  for (const key of Object.keys(propertyStore.getProperties())) {
    const parts = key.split('.');
    if (key.indexOf(STORAGE_PREFIX_) !== 0 || parts.length < 2 || !parts[1]) continue;
    if (names.indexOf(parts[1]) < 0) names.push(parts[1]);
  }
  return names;
}

const EXPIRATION_BUFFER_SECONDS_ = 60;
const LOCK_EXPIRATION_MILLISECONDS_ = 30 * 1000;
const CACHE_EXPIRATION_TIME_SECONDS_ = 21600;
const CACHE_NULL_VALUE_ = '__NULL__';

class Service_ {
  private serviceName_: string;
  private params_: Params = {};
  private tokenFormat_: string = TOKEN_FORMAT.JSON;
  private tokenHeaders_: Params | null = null;
  private tokenMethod_ = 'post';
  private expirationMinutes_: number = 60;
  private authorizationBaseUrl_?: string;
  private tokenUrl_?: string;
  private refreshUrl_?: string;
  private codeVerifier_?: string;
  private codeChallengeMethod_?: string;
  private tokenPayloadHandler_?: (payload: Params) => Params;
  private callbackFunctionName_?: string;
  private clientId_?: string;
  private clientSecret_?: string;
  private propertyStore_?: GoogleAppsScript.Properties.Properties;
  private cache_?: GoogleAppsScript.Cache.Cache;
  private lock_?: GoogleAppsScript.Lock.Lock;
  private privateKey_?: string;
  private issuer_?: string;
  private subject_?: string;
  private additionalClaims_?: Params;
  private grantType_?: string;
  private redirectUri_?: string;
  private storage_?: Storage_;
  private lastError_: unknown;

  constructor(serviceName: string) {
    requireValues_({ 'Service name': serviceName });
    this.serviceName_ = serviceName;
  }

  setAuthorizationBaseUrl(url: string) {
    this.authorizationBaseUrl_ = url;
    return this;
  }
  setTokenUrl(url: string) {
    this.tokenUrl_ = url;
    return this;
  }
  setRefreshUrl(url: string) {
    this.refreshUrl_ = url;
    return this;
  }
  setTokenFormat(format: string) {
    this.tokenFormat_ = format;
    return this;
  }
  setTokenHeaders(headers: Params) {
    this.tokenHeaders_ = headers;
    return this;
  }
  setTokenMethod(method: string) {
    this.tokenMethod_ = method;
    return this;
  }
  setTokenPayloadHandler(handler: (payload: Params) => Params) {
    this.tokenPayloadHandler_ = handler;
    return this;
  }
  setCallbackFunction(name: string) {
    this.callbackFunctionName_ = name;
    return this;
  }
  setClientId(clientId: string) {
    this.clientId_ = clientId;
    return this;
  }
  setClientSecret(secret: string) {
    this.clientSecret_ = secret;
    return this;
  }
  setPropertyStore(store: GoogleAppsScript.Properties.Properties) {
    this.propertyStore_ = store;
    return this;
  }
  setCache(cache: GoogleAppsScript.Cache.Cache) {
    this.cache_ = cache;
    return this;
  }
  setLock(lock: GoogleAppsScript.Lock.Lock) {
    this.lock_ = lock;
    return this;
  }
  setParam(name: string, value: string) {
    this.params_[name] = value;
    return this;
  }
  setPrivateKey(key: string) {
    this.privateKey_ = key;
    return this;
  }
  setIssuer(issuer: string) {
    this.issuer_ = issuer;
    return this;
  }
  setAdditionalClaims(claims: Params) {
    this.additionalClaims_ = claims;
    return this;
  }
  setSubject(subject: string) {
    this.subject_ = subject;
    return this;
  }
  setExpirationMinutes(minutes: number) {
    this.expirationMinutes_ = minutes;
    return this;
  }
  setGrantType(grantType: string) {
    this.grantType_ = grantType;
    return this;
  }
  setRedirectUri(uri: string) {
    this.redirectUri_ = uri;
    return this;
  }

  setScope(scope: string | string[], optSeparator?: string) {
    const separator = optSeparator || ' ';
    this.params_['scope'] = Array.isArray(scope) ? scope.join(separator) : scope;
    return this;
  }

  /** (sic) The library's spelling. Defaults the challenge method to S256. */
  setCodeVerififer(codeVerifier: string) {
    this.codeVerifier_ = codeVerifier;
    if (!this.codeChallengeMethod_) this.codeChallengeMethod_ = 'S256';
    return this;
  }

  /** As in the library: 32 bytes from Math.random (the add-on supplies its own verifier instead). */
  generateCodeVerifier() {
    const bytes: number[] = [];
    for (let i = 0; i < 32; i++) bytes.push(Math.floor(Math.random() * 255));
    return this.setCodeVerififer(urlSafeBase64NoPadding_(bytes));
  }

  setCodeChallengeMethod(method: string) {
    this.codeChallengeMethod_ = method;
    return this;
  }

  getRedirectUri(): string {
    return this.redirectUri_ || getRedirectUri();
  }

  getAuthorizationUrl(optAdditionalParameters?: Params): string {
    requireValues_({
      'Client ID': this.clientId_,
      'Callback function name': this.callbackFunctionName_,
      'Authorization base URL': this.authorizationBaseUrl_,
    });
    const builder = ScriptApp.newStateToken()
      .withMethod(this.callbackFunctionName_ as string)
      .withArgument('serviceName', this.serviceName_)
      .withTimeout(3600);
    if (this.codeVerifier_) builder.withArgument('codeVerifier_', this.codeVerifier_);
    if (optAdditionalParameters) {
      for (const key of Object.keys(optAdditionalParameters)) builder.withArgument(key, optAdditionalParameters[key]);
    }
    let params: Params = {
      client_id: this.clientId_ as string,
      response_type: 'code',
      redirect_uri: this.getRedirectUri(),
      state: builder.createToken(),
    };
    if (this.codeVerifier_) {
      params['code_challenge'] = challengeFor_(this.codeChallengeMethod_ as string, this.codeVerifier_);
      params['code_challenge_method'] = this.codeChallengeMethod_ as string;
    }
    params = assign_(params, this.params_);
    return urlWithParams_(this.authorizationBaseUrl_ as string, params);
  }

  handleCallback(callbackRequest: { parameter: Params }): boolean {
    const code = callbackRequest.parameter['code'];
    const error = callbackRequest.parameter['error'];
    if (error) {
      if (error === 'access_denied') return false;
      throw new Error('Error authorizing token: ' + error);
    }
    // v1.43.0 (the manifest's version 43) insists on a secret even when a payload handler drops it.
    requireValues_({ 'Client ID': this.clientId_, 'Client Secret': this.clientSecret_, 'Token URL': this.tokenUrl_ });
    const payload: Params = {
      code: code as string,
      client_id: this.clientId_ as string,
      client_secret: this.clientSecret_ as string,
      redirect_uri: this.getRedirectUri(),
      grant_type: 'authorization_code',
    };
    if (callbackRequest.parameter['codeVerifier_'])
      payload['code_verifier'] = callbackRequest.parameter['codeVerifier_'];
    this.saveToken_(this.fetchToken_(payload));
    return true;
  }

  hasAccess(): boolean {
    let token = this.getToken();
    if (token && !this.isExpired_(token)) return true;
    const canGetToken = (token && this.canRefresh_(token)) || this.privateKey_ || this.grantType_;
    if (!canGetToken) return false;
    return this.lockable_(() => {
      // Another execution may have refreshed while this one waited for the lock.
      token = this.getToken(true);
      if (token && !this.isExpired_(token)) return true;
      try {
        if (token && this.canRefresh_(token)) {
          this.refresh();
          return true;
        } else if (this.privateKey_) {
          this.exchangeJwt_();
          return true;
        } else if (this.grantType_) {
          this.exchangeGrant_();
          return true;
        }
        return false;
      } catch (e) {
        this.lastError_ = e;
        return false;
      }
    });
  }

  getAccessToken(): string {
    if (!this.hasAccess()) throw new Error('Access not granted or expired.');
    return (this.getToken() as TokenObject)['access_token'];
  }

  getIdToken(): string | undefined {
    if (!this.hasAccess()) throw new Error('Access not granted or expired.');
    return (this.getToken() as TokenObject)['id_token'];
  }

  reset(): void {
    this.getStorage().reset();
  }

  getLastError(): unknown {
    return this.lastError_;
  }

  refresh(): void {
    requireValues_({ 'Client ID': this.clientId_, 'Client Secret': this.clientSecret_, 'Token URL': this.tokenUrl_ });
    this.lockable_(() => {
      const token = this.getToken() as TokenObject;
      if (!token['refresh_token']) throw new Error('Offline access is required.');
      const payload: Params = {
        refresh_token: token['refresh_token'],
        client_id: this.clientId_ as string,
        client_secret: this.clientSecret_ as string,
        grant_type: 'refresh_token',
      };
      const newToken = this.fetchToken_(payload, this.refreshUrl_);
      if (!newToken['refresh_token']) newToken['refresh_token'] = token['refresh_token'];
      this.ensureExpiresAtSet_(token);
      if (newToken['refreshTokenExpiresAt'] === undefined)
        newToken['refreshTokenExpiresAt'] = token['refreshTokenExpiresAt'];
      this.saveToken_(newToken);
    });
  }

  getStorage(): Storage_ {
    if (!this.storage_)
      this.storage_ = new Storage_(STORAGE_PREFIX_ + this.serviceName_, this.propertyStore_, this.cache_);
    return this.storage_;
  }

  getToken(optSkipMemoryCheck?: boolean): TokenObject | null {
    return this.getStorage().getValue(null, optSkipMemoryCheck);
  }

  private saveToken_(token: TokenObject): void {
    this.getStorage().setValue(null, token);
  }

  private fetchToken_(payload: Params, optUrl?: string): TokenObject {
    const url = optUrl || (this.tokenUrl_ as string);
    let headers: Params = { Accept: this.tokenFormat_ };
    if (this.tokenHeaders_) headers = assign_(headers, this.tokenHeaders_);
    if (this.tokenPayloadHandler_) payload = this.tokenPayloadHandler_(payload);
    const response = UrlFetchApp.fetch(url, {
      method: this.tokenMethod_ as GoogleAppsScript.URL_Fetch.HttpMethod,
      headers,
      payload,
      muteHttpExceptions: true,
    });
    return this.tokenFromResponse_(response);
  }

  private tokenFromResponse_(response: GoogleAppsScript.URL_Fetch.HTTPResponse): TokenObject {
    const token = this.parseToken_(response.getContentText());
    const status = response.getResponseCode();
    if (status < 200 || status >= 300 || token['error']) {
      let reason = [token['error'], token['message'], token['error_description'], token['error_uri']]
        .filter(Boolean)
        .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
        .join(', ');
      if (!reason) reason = status + ': ' + JSON.stringify(token);
      throw new Error('Error retrieving token: ' + reason);
    }
    return token;
  }

  private parseToken_(content: string): TokenObject {
    let token: TokenObject;
    if (this.tokenFormat_ === TOKEN_FORMAT.JSON) {
      try {
        token = JSON.parse(content);
      } catch (e) {
        throw new Error('Token response not valid JSON: ' + e);
      }
    } else if (this.tokenFormat_ === TOKEN_FORMAT.FORM_URL_ENCODED) {
      token = {};
      for (const pair of content.split('&')) {
        const parts = pair.split('=');
        token[decodeURIComponent(parts[0])] = decodeURIComponent(parts[1]);
      }
    } else {
      throw new Error('Unknown token format: ' + this.tokenFormat_);
    }
    this.ensureExpiresAtSet_(token);
    return token;
  }

  private ensureExpiresAtSet_(token: TokenObject): void {
    if (token['expiresAt'] !== undefined) return;
    const grantedTime = token['granted_time'] || secondsOf_(new Date());
    const expiresIn = token['expires_in_sec'] || token['expires_in'] || token['expires'];
    if (expiresIn) token['expiresAt'] = grantedTime + Number(expiresIn);
    const refreshExpiresIn = token['refresh_token_expires_in'];
    if (refreshExpiresIn) token['refreshTokenExpiresAt'] = grantedTime + Number(refreshExpiresIn);
  }

  private isExpired_(token: TokenObject): boolean {
    let expired = false;
    const now = secondsOf_(new Date());
    if (token['expiresAt'] && token['expiresAt'] - now < EXPIRATION_BUFFER_SECONDS_) expired = true;
    // Tokens saved by old library versions carry granted_time + expires_in instead.
    const expiresIn = token['expires_in_sec'] || token['expires_in'] || token['expires'];
    if (expiresIn && token['granted_time'] + Number(expiresIn) - now < EXPIRATION_BUFFER_SECONDS_) expired = true;
    if (token['id_token']) {
      const claims = jwtPayload_(token['id_token']);
      if (claims['exp'] && claims['exp'] - now < EXPIRATION_BUFFER_SECONDS_) expired = true;
    }
    return expired;
  }

  private canRefresh_(token: TokenObject): boolean {
    if (!token['refresh_token']) return false;
    this.ensureExpiresAtSet_(token);
    if (token['refreshTokenExpiresAt'] === undefined) return true;
    return token['refreshTokenExpiresAt'] - secondsOf_(new Date()) > EXPIRATION_BUFFER_SECONDS_;
  }

  private exchangeJwt_(): void {
    requireValues_({ 'Token URL': this.tokenUrl_ });
    const payload: Params = { assertion: this.createJwt_(), grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' };
    this.saveToken_(this.fetchToken_(payload));
  }

  private createJwt_(): string {
    requireValues_({
      'Private key': this.privateKey_,
      'Token URL': this.tokenUrl_,
      'Issuer or Client ID': this.issuer_ || this.clientId_,
    });
    const now = new Date();
    const expires = new Date(now.getTime());
    expires.setMinutes(expires.getMinutes() + this.expirationMinutes_);
    const claims: TokenObject = {
      iss: this.issuer_ || this.clientId_,
      aud: this.tokenUrl_,
      exp: Math.round(expires.getTime() / 1000),
      iat: Math.round(now.getTime() / 1000),
    };
    if (this.subject_) claims['sub'] = this.subject_;
    if (this.params_['scope']) claims['scope'] = this.params_['scope'];
    if (this.additionalClaims_) assign_(claims, this.additionalClaims_);
    const unsigned =
      Utilities.base64EncodeWebSafe(JSON.stringify({ alg: 'RS256', typ: 'JWT' })) +
      '.' +
      Utilities.base64EncodeWebSafe(JSON.stringify(claims));
    return (
      unsigned +
      '.' +
      Utilities.base64EncodeWebSafe(Utilities.computeRsaSha256Signature(unsigned, this.privateKey_ as string))
    );
  }

  /** As in the library: takes the lock unless this object already holds it; no finally. */
  private lockable_<T>(fn: () => T): T {
    let release = false;
    if (this.lock_ && !this.lock_.hasLock()) {
      this.lock_.waitLock(LOCK_EXPIRATION_MILLISECONDS_);
      release = true;
    }
    const result = fn();
    if (this.lock_ && release) this.lock_.releaseLock();
    return result;
  }

  private exchangeGrant_(): void {
    requireValues_({ 'Grant Type': this.grantType_, 'Token URL': this.tokenUrl_ });
    const payload = assign_({ grant_type: this.grantType_ as string }, this.params_);
    const lowerHeaders = this.tokenHeaders_ ? lowerCaseKeys_(this.tokenHeaders_) : null;
    if (
      this.grantType_ === 'client_credentials' &&
      this.clientId_ &&
      this.clientSecret_ &&
      (!lowerHeaders || !lowerHeaders['authorization'])
    ) {
      this.tokenHeaders_ = this.tokenHeaders_ || {};
      this.tokenHeaders_['authorization'] =
        'Basic ' + Utilities.base64Encode(this.clientId_ + ':' + this.clientSecret_);
    }
    this.saveToken_(this.fetchToken_(payload));
  }
}

/** The library's Storage_: memory, then cache, then properties; a null marker avoids re-reading. */
class Storage_ {
  private memory_: Record<string, any> = {};

  constructor(
    private prefix_: string,
    private properties_?: GoogleAppsScript.Properties.Properties,
    private cache_?: GoogleAppsScript.Cache.Cache,
  ) {}

  getValue(key: string | null, optSkipMemoryCheck?: boolean): any {
    const prefixedKey = this.prefixedKey_(key);
    let value: any;
    if (!optSkipMemoryCheck && (value = this.memory_[prefixedKey])) {
      return value === CACHE_NULL_VALUE_ ? null : value;
    }
    let json: string | null;
    if (this.cache_ && (json = this.cache_.get(prefixedKey))) {
      value = JSON.parse(json);
      this.memory_[prefixedKey] = value;
      return value === CACHE_NULL_VALUE_ ? null : value;
    }
    if (this.properties_ && (json = this.properties_.getProperty(prefixedKey))) {
      if (this.cache_) this.cache_.put(prefixedKey, json, CACHE_EXPIRATION_TIME_SECONDS_);
      value = JSON.parse(json);
      this.memory_[prefixedKey] = value;
      return value;
    }
    this.memory_[prefixedKey] = CACHE_NULL_VALUE_;
    if (this.cache_) this.cache_.put(prefixedKey, JSON.stringify(CACHE_NULL_VALUE_), CACHE_EXPIRATION_TIME_SECONDS_);
    return null;
  }

  setValue(key: string | null, value: any): void {
    const prefixedKey = this.prefixedKey_(key);
    const json = JSON.stringify(value);
    if (this.properties_) this.properties_.setProperty(prefixedKey, json);
    if (this.cache_) this.cache_.put(prefixedKey, json, CACHE_EXPIRATION_TIME_SECONDS_);
    this.memory_[prefixedKey] = value;
  }

  removeValue(key: string | null): void {
    this.removeByPrefixedKey_(this.prefixedKey_(key));
  }

  reset(): void {
    const prefix = this.prefixedKey_(null);
    let keys = Object.keys(this.memory_);
    if (this.properties_) {
      keys = Object.keys(this.properties_.getProperties()).filter((k) => k === prefix || k.indexOf(prefix + '.') === 0);
    }
    for (const key of keys) this.removeByPrefixedKey_(key);
  }

  private removeByPrefixedKey_(prefixedKey: string): void {
    if (this.properties_) this.properties_.deleteProperty(prefixedKey);
    if (this.cache_) this.cache_.remove(prefixedKey);
    delete this.memory_[prefixedKey];
  }

  private prefixedKey_(key: string | null | undefined): string {
    return key ? this.prefix_ + '.' + key : this.prefix_;
  }
}

function urlWithParams_(url: string, params: Params): string {
  const query = Object.keys(params)
    .map((key) => encodeURIComponent(key) + '=' + encodeURIComponent(params[key]))
    .join('&');
  return url + (url.indexOf('?') >= 0 ? '&' : '?') + query;
}

function requireValues_(values: Record<string, unknown>): void {
  for (const name of Object.keys(values)) {
    if (!values[name]) throw new Error(name + ' is required.');
  }
}

function secondsOf_(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function assign_<T extends Record<string, any>>(destination: T, source: Record<string, any>): T {
  for (const key of Object.keys(source)) (destination as Record<string, any>)[key] = source[key];
  return destination;
}

function lowerCaseKeys_(obj: Params): Params {
  const result: Params = {};
  for (const key of Object.keys(obj)) result[key.toLowerCase()] = obj[key];
  return result;
}

function jwtPayload_(jwt: string): TokenObject {
  const blob = Utilities.newBlob(Utilities.base64DecodeWebSafe(jwt.split('.')[1]));
  return JSON.parse(blob.getDataAsString());
}

/** As in the library: web-safe base64 cut at the first '=' (the S256 digest always has one). */
function urlSafeBase64NoPadding_(value: number[] | GoogleAppsScript.Byte[] | string): string {
  const encoded = Utilities.base64EncodeWebSafe(value as any);
  return encoded.slice(0, encoded.indexOf('='));
}

function challengeFor_(method: string, codeVerifier: string): string {
  const lower = method.toLowerCase();
  if (lower === 'plain') return codeVerifier;
  if (lower === 's256') {
    const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, codeVerifier, Utilities.Charset.US_ASCII);
    return urlSafeBase64NoPadding_(digest);
  }
  throw new Error('Unsupported challenge method: ' + method);
}
