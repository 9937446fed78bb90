from config import device

print(device)
