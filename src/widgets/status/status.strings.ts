/** Strings of <csai-status> (namespace `status`). */
export const statusStrings = {
  zh: {
    product: 'CSAI',
    checking: '正在连接服务器…',
    online: '服务正常',
    offline: '无法连接服务器',
    version: '版本 {{version}}',
  },
  en: {
    product: 'CSAI',
    checking: 'Connecting to the server…',
    online: 'Service available',
    offline: 'Cannot reach the server',
    version: 'Version {{version}}',
  },
};
