/** Strings of <csai-status> (namespace `status`). */
export const statusStrings = {
  zh: {
    product: 'CSAI',
    checking: '正在连接服务器…',
    online: '服务正常',
    offline: '无法连接服务器',
    version: '版本 {{version}}',
    network_error: '网络连接失败，请检查网络后重试',
    unexpected_response: '服务器返回了无法识别的数据',
    server_error: '服务器暂时不可用（{{status}}）',
  },
  en: {
    product: 'CSAI',
    checking: 'Connecting to the server…',
    online: 'Service available',
    offline: 'Cannot reach the server',
    version: 'Version {{version}}',
    network_error: 'Network error, please check your connection',
    unexpected_response: 'The server answered with data the page does not understand',
    server_error: 'The server is unavailable ({{status}})',
  },
};
