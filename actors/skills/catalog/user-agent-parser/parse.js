/** Browser, rendering engine, operating system and device type of User-Agent strings, and bots. */
function run(params) {
  const BROWSERS = [
    ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
    ['Opera', /(?:OPR|Opera)\/([\d.]+)/],
    ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
    ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
    ['Safari', /Version\/([\d.]+).*Safari\//],
    ['Internet Explorer', /(?:MSIE |Trident\/.*rv:)([\d.]+)/],
  ];
  const BOTS = [
    ['Googlebot', /Googlebot\/([\d.]+)/],
    ['Bingbot', /bingbot\/([\d.]+)/],
    ['curl', /^curl\/([\d.]+)/],
    ['Python requests', /python-requests\/([\d.]+)/],
    ['GPTBot', /GPTBot\/([\d.]+)/],
    ['Generic bot', /(bot|crawler|spider|slurp)\b/i],
  ];
  const OS = [
    ['iOS', /(?:iPhone|iPad|iPod).*OS ([\d_]+)/],
    ['Android', /Android ([\d.]+)/],
    ['Windows', /Windows NT ([\d.]+)/],
    ['macOS', /Mac OS X ([\d_.]+)/],
    ['ChromeOS', /CrOS \S+ ([\d.]+)/],
    ['Linux', /Linux/],
  ];
  const WINDOWS = { '10.0': '10/11', 6.3: '8.1', 6.2: '8', 6.1: '7' };
  const parse = (ua) => {
    const out = {
      userAgent: ua,
      bot: null,
      browser: null,
      browserVersion: null,
      engine: null,
      os: null,
      osVersion: null,
      device: 'desktop',
    };
    for (const [name, re] of BOTS) {
      const m = re.exec(ua);
      if (m) {
        out.bot = name;
        out.device = 'bot';
        break;
      }
    }
    for (const [name, re] of BROWSERS) {
      const m = re.exec(ua);
      if (m) {
        out.browser = name;
        out.browserVersion = m[1];
        break;
      }
    }
    out.engine =
      /Gecko\/\d/.test(ua) && /Firefox/.test(ua)
        ? 'Gecko'
        : /Trident/.test(ua)
          ? 'Trident'
          : /AppleWebKit/.test(ua)
            ? /Chrome|CriOS|Edg|OPR/.test(ua)
              ? 'Blink'
              : 'WebKit'
            : null;
    for (const [name, re] of OS) {
      const m = re.exec(ua);
      if (m) {
        out.os = name;
        out.osVersion = m[1] ? m[1].replace(/_/g, '.') : null;
        if (name === 'Windows') out.osVersion = WINDOWS[m[1]] || m[1];
        break;
      }
    }
    if (!out.bot) {
      if (/iPad|Tablet|(Android(?!.*Mobile))/.test(ua)) out.device = 'tablet';
      else if (/Mobi|iPhone|iPod|Android.*Mobile/.test(ua)) out.device = 'mobile';
    }
    return out;
  };
  const results = params.userAgents.map(parse);
  const counts = (key) =>
    results.reduce((o, r) => ((o[r[key] || 'unknown'] = (o[r[key] || 'unknown'] || 0) + 1), o), {});
  return { results, summary: { browsers: counts('browser'), os: counts('os'), devices: counts('device') } };
}
